// canter gui: the page. It knows no rules: it draws what the server sends (STATE, SNAPSHOT)
// and asks the server for legal moves. See docs/gui.md for the HTTP API.
'use strict';
(() => {
  const TOKEN = new URLSearchParams(location.search).get('token') || '';
  const SVGNS = 'http://www.w3.org/2000/svg';
  const SEAT_COLOURS = {
    white: '#f7f3e8', black: '#262626', blue: '#2f6bd8',
    red: '#d23a32', green: '#2f9a45', yellow: '#e2b814',
  };
  // for seat names the page has never heard of (new variants)
  const FALLBACK_COLOURS = ['#8e44ad', '#e67e22', '#16a085', '#c2185b', '#607d8b', '#795548'];
  const SQUARE = 40; // side of a square cell, in SVG units
  const HEX_R = 24; // circumradius of a hexagonal cell
  const LIGHT = '#eedcb3';
  const DARK = '#d2b07a';
  const HEX_TINTS = ['#eedcb3', '#e2c994', '#d6b57c'];
  const ARROW_STYLES = [ // analysis line 1, 2, ...: width (in cell units), colour, opacity
    [0.2, '#12a03c', 0.9], [0.13, '#2f6bd8', 0.7], [0.11, '#8e44ad', 0.6],
    [0.1, '#7f8c8d', 0.55], [0.09, '#7f8c8d', 0.5],
  ];
  const LAST_MOVE_COLOUR = '#d98a00';
  // The board's own style sheet lives inside the <svg>, so an exported picture looks the same.
  const BOARD_STYLE = `
.canter-board { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; }
.canter-board .cell-bg { stroke: #8a7657; stroke-width: 1; }
.canter-board .castle > .cell-bg { stroke-width: 3; }
.canter-board .cell-mark { fill: none; pointer-events: none; }
.canter-board .cell.last > .cell-mark { fill: #f5c842; fill-opacity: 0.55; }
.canter-board .cell-name { fill: #7d6a4a; pointer-events: none; }
.canter-board .label { fill: #5b4a32; font-weight: bold; pointer-events: none; }
.canter-board .piece .body { stroke-width: 1.5; }
.canter-board .piece .ring { fill: none; stroke-width: 1.2; }
.canter-board .piece text { font-weight: bold; pointer-events: none; }
.canter-board .piece.selected .body { stroke: #ff9d00; stroke-width: 4; }
.canter-board .target { fill: #16a34a; fill-opacity: 0.6; stroke: #0b5d25; stroke-width: 1.5; }
.canter-board .arrows, .canter-board .marks { pointer-events: none; }
.canter-board .lastmove, .canter-board .arrow { fill: none; stroke-linecap: round; stroke-linejoin: round; }
`;

  const $ = (id) => document.getElementById(id);

  const app = {
    state: null,
    receivedAt: 0, // performance.now() when the state arrived (clocks count from it)
    shownPly: null, // null: the last position; else the ply shown from a SNAPSHOT
    snapshot: null,
    snapshotKey: '',
    navSeq: 0,
    viewSeat: null, // the seat whose castle is at the bottom
    board: null, // geometry and elements of the drawn board
    selected: null, // cell of the selected piece
    selectedPosition: null,
    targets: new Map(), // end cell -> [moves]
    legalSeq: 0,
    movesDrawn: null,
    seatsKey: '',
    analysisKey: '',
    lastServerMessage: null,
    analysisAskedFor: null,
    knownSeats: {}, // variant -> seat names seen in BOARD data
    polling: null,
  };

  // ---------------------------------------------------------------- server

  class ApiError extends Error {
    constructor(message, status, data) {
      super(message);
      this.status = status;
      this.data = data;
    }
  }

  async function api(method, path, body, raw) {
    const opts = { method, headers: { 'X-Canter-Token': TOKEN } };
    if (body !== undefined) {
      opts.headers['Content-Type'] = raw ? 'text/plain; charset=utf-8' : 'application/json';
      opts.body = raw ? body : JSON.stringify(body);
    }
    let resp;
    try {
      resp = await fetch(path, opts);
    } catch (err) {
      throw new ApiError(`cannot reach the canter server (${err.message})`, 0, null);
    }
    const text = await resp.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch (err) {
      data = null;
    }
    if (!resp.ok) {
      const reason = data && data.error ? data.error : `${method} ${path}: HTTP ${resp.status}`;
      throw new ApiError(reason, resp.status, data);
    }
    return data;
  }

  // POST an action whose answer is a STATE; errors go to the message bar.
  async function act(path, body) {
    try {
      const state = await api('POST', path, body);
      if (state && typeof state.version === 'number') applyState(state);
      return state;
    } catch (err) {
      showMessage(err.message, true);
      return null;
    }
  }

  function connect() {
    let errors = 0;
    const es = new EventSource('/api/events?token=' + encodeURIComponent(TOKEN));
    es.onmessage = (ev) => {
      errors = 0;
      stopPolling();
      let state;
      try {
        state = JSON.parse(ev.data);
      } catch (err) {
        return;
      }
      applyState(state);
    };
    es.onerror = () => {
      errors += 1;
      if (errors >= 3 || es.readyState === EventSource.CLOSED) {
        es.close();
        startPolling();
        setTimeout(connect, 15000); // try the event stream again later
      }
    };
  }

  function startPolling() {
    if (app.polling) return;
    app.polling = setInterval(fetchState, 1000);
  }

  function stopPolling() {
    if (!app.polling) return;
    clearInterval(app.polling);
    app.polling = null;
  }

  async function fetchState() {
    try {
      applyState(await api('GET', '/api/state'));
    } catch (err) {
      showMessage(err.message, true);
    }
  }

  function applyState(state) {
    if (!state || typeof state.version !== 'number') return;
    if (app.state && state.version <= app.state.version) return;
    const old = app.state;
    app.state = state;
    app.receivedAt = performance.now();
    if (state.board) app.knownSeats[state.board.variant || state.variant] = state.board.seats;
    if (!old || old.variant !== state.variant || !sameList(old.board.seats, state.board.seats)) {
      app.viewSeat = defaultViewSeat(state);
    }
    if (app.selected && (state.current.position !== app.selectedPosition || !canPlay())) {
      clearSelection();
    } else if (old && old.current.position !== state.current.position) {
      showCandidates([]);  // (a typed move's choices: of a position that is gone)
    }
    if (state.message && state.message !== app.lastServerMessage) showMessage(state.message, false);
    app.lastServerMessage = state.message;
    // a shown past position stays shown unless the game's moves no longer lead to it
    if (app.shownPly !== null) {
      if (app.shownPly >= state.moves.length) {
        app.shownPly = null;
        app.snapshot = null;
      } else if (snapshotKey(state, app.shownPly) !== app.snapshotKey) {
        navigate(app.shownPly);
      }
    }
    render();
    followAnalysis();
  }

  // ---------------------------------------------------------------- helpers

  function sameList(a, b) {
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }

  function seatColour(name) {
    if (SEAT_COLOURS[name]) return SEAT_COLOURS[name];
    const seats = app.state ? app.state.board.seats : [];
    const i = Math.max(0, seats.indexOf(name));
    return FALLBACK_COLOURS[i % FALLBACK_COLOURS.length];
  }

  function hexToRgb(colour) {
    const n = parseInt(colour.slice(1), 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }

  function mix(a, b, t) {
    const x = hexToRgb(a);
    const y = hexToRgb(b);
    return '#' + x.map((v, i) => Math.round(v + (y[i] - v) * t).toString(16).padStart(2, '0')).join('');
  }

  function isLight(colour) {
    const [r, g, b] = hexToRgb(colour);
    return 0.299 * r + 0.587 * g + 0.114 * b > 150;
  }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === 'class') node.className = v;
      else node.setAttribute(k, v === true ? '' : String(v));
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svg(tag, attrs, text) {
    const node = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) node.setAttribute(k, String(v));
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  const fmt = (x) => (Math.round(x * 100) / 100).toString();

  function route(move) {
    return String(move).trim().split(/[-x]/i).filter((c) => c !== '');
  }

  function fmtInt(n) {
    return typeof n === 'number' ? n.toLocaleString('en-US') : '';
  }

  function fmtClock(seconds) {
    const s = Math.max(0, Math.floor(seconds + 1e-6));
    const m = Math.floor(s / 60);
    return `${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  }

  function ordinal(n) {
    const tens = n % 100;
    if (tens >= 11 && tens <= 13) return `${n}th`;
    return n + ({ 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th');
  }

  function engineName(index) {
    const engines = app.state ? app.state.engines || [] : [];
    const e = engines.find((x) => x.index === index) || engines[index];
    return e ? e.name : `engine ${index}`;
  }

  function limitText(limit) {
    if (!limit) return '';
    const parts = [];
    if (limit.movetime != null) parts.push(`${limit.movetime} s/move`);
    if (limit.depth != null) parts.push(`depth ${limit.depth}`);
    if (limit.nodes != null) parts.push(`${fmtInt(limit.nodes)} nodes`);
    if (limit.skill != null) parts.push(`skill ${limit.skill}`);
    return parts.join(', ');
  }

  function clockText(clock) {
    if (!clock) return '';
    return `${fmtClock(clock.base)} + ${clock.inc} s`;
  }

  function showMessage(text, isError) {
    const box = $('message');
    box.textContent = text || '';
    box.hidden = !text;
    box.classList.toggle('error', !!isError);
  }

  function defaultViewSeat(state) {
    const human = state.seats.find((s) => s.player === 'human');
    return human ? human.name : state.board.seats[0];
  }

  function isLive() {
    return app.shownPly === null;
  }

  function shownPlyNumber() {
    return app.shownPly === null ? app.state.moves.length : app.shownPly;
  }

  function shownSnapshot() {
    return app.shownPly === null || !app.snapshot ? app.state.current : app.snapshot;
  }

  function seatByName(name) {
    return app.state.seats.find((s) => s.name === name) || null;
  }

  // A human may move now: the last position is shown and a human seat is to move.
  function canPlay() {
    const s = app.state;
    if (!s || s.result || s.watch || !isLive()) return false;
    const seat = seatByName(s.current.turn);
    return !!seat && seat.player === 'human';
  }

  function snapshotKey(state, ply) {
    return `${state.variant}|${state.start}|${state.moves.slice(0, ply).join(' ')}`;
  }

  // ---------------------------------------------------------------- board geometry

  function buildGeometry(board, viewSeat) {
    const hex = board.shape === 'hex';
    const raw = new Map();
    for (const c of board.cells) {
      raw.set(c.name, hex
        ? [1.5 * c.file * HEX_R, -(Math.sqrt(3) / 2) * c.rank * HEX_R]
        : [c.file * SQUARE, -c.rank * SQUARE]);
    }
    const xs = [...raw.values()].map((p) => p[0]);
    const ys = [...raw.values()].map((p) => p[1]);
    const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    // Turn the board so the centroid of the seat's castle lies straight below the centre;
    // snapped to the board's symmetry so cells keep their orientation.
    let angle = 0;
    const castle = ((board.castles || {})[viewSeat] || []).map((n) => raw.get(n)).filter(Boolean);
    if (castle.length) {
      const vx = castle.reduce((a, p) => a + p[0], 0) / castle.length - cx;
      const vy = castle.reduce((a, p) => a + p[1], 0) / castle.length - cy;
      if (Math.hypot(vx, vy) > 1e-6) {
        const step = hex ? Math.PI / 3 : Math.PI / 2;
        angle = Math.round((Math.PI / 2 - Math.atan2(vy, vx)) / step) * step;
      }
    }
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const rot = (x, y) => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos];
    const unit = hex ? Math.sqrt(3) * HEX_R : SQUARE; // distance between neighbouring centres
    const outline = hex
      ? [0, 1, 2, 3, 4, 5].map((k) => [HEX_R * Math.cos(k * Math.PI / 3), HEX_R * Math.sin(k * Math.PI / 3)])
      : [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([a, b]) => [a * SQUARE / 2, b * SQUARE / 2]);
    const centres = new Map();
    const polygons = new Map();
    for (const [name, [x, y]] of raw) {
      centres.set(name, rot(x, y));
      polygons.set(name, outline.map(([dx, dy]) => rot(x + dx, y + dy)));
    }
    // file letters above and below the board, rank numbers left and right of it
    const labels = [];
    const files = new Map();
    const ranks = new Map();
    for (const c of board.cells) {
      const m = /^\d?([A-Za-z]+)(\d+)$/.exec(c.name);
      if (!m) continue;
      files.set(c.file, m[1]);
      ranks.set(c.rank, m[2]);
    }
    if (!hex) {
      // squares: along the edges of the board's bounding box, as on a printed board
      const gap = SQUARE * 0.8;
      for (const [f, letter] of files) {
        labels.push([letter, rot(f * SQUARE, maxY + gap)], [letter, rot(f * SQUARE, minY - gap)]);
      }
      for (const [r, digits] of ranks) {
        labels.push([digits, rot(minX - gap, -r * SQUARE)], [digits, rot(maxX + gap, -r * SQUARE)]);
      }
    } else {
      // hexagons: hugging the outline, so a turned board keeps its labels next to it;
      // a rank label clears the cells of the ranks beside it too
      const colY = new Map();
      const rowX = new Map();
      for (const c of board.cells) {
        const [x, y] = raw.get(c.name);
        const col = colY.get(c.file) || [Infinity, -Infinity];
        colY.set(c.file, [Math.min(col[0], y), Math.max(col[1], y)]);
        const row = rowX.get(c.rank) || [Infinity, -Infinity];
        rowX.set(c.rank, [Math.min(row[0], x), Math.max(row[1], x)]);
      }
      for (const [f, letter] of files) {
        const [y0, y1] = colY.get(f);
        const x = 1.5 * f * HEX_R;
        labels.push([letter, rot(x, y1 + HEX_R * 1.35)], [letter, rot(x, y0 - HEX_R * 1.35)]);
      }
      for (const [r, digits] of ranks) {
        const near = [r - 1, r, r + 1].map((k) => rowX.get(k)).filter(Boolean);
        const x0 = Math.min(...near.map((p) => p[0])) - HEX_R * 1.45;
        const x1 = Math.max(...near.map((p) => p[1])) + HEX_R * 1.45;
        const y = -(Math.sqrt(3) / 2) * r * HEX_R;
        labels.push([digits, rot(x0, y)], [digits, rot(x1, y)]);
      }
    }
    // on odd outlines a rank label can land on a file label: the file label wins
    const placed = [];
    for (const label of labels) {
      const [x, y] = label[1];
      if (!placed.some((p) => Math.hypot(p[1][0] - x, p[1][1] - y) < (hex ? 17 : 20))) placed.push(label);
    }
    labels.length = 0;
    labels.push(...placed);
    const all = [...polygons.values()].flat().concat(labels.map((l) => l[1]));
    const pad = hex ? 12 : 14;
    const bx0 = Math.min(...all.map((p) => p[0])) - pad;
    const by0 = Math.min(...all.map((p) => p[1])) - pad;
    const bx1 = Math.max(...all.map((p) => p[0])) + pad;
    const by1 = Math.max(...all.map((p) => p[1])) + pad;
    return {
      hex, unit, centres, polygons, labels, angle,
      viewBox: [bx0, by0, bx1 - bx0, by1 - by0],
      pieceR: hex ? 0.56 * HEX_R : 0.38 * SQUARE,
      labelSize: hex ? 11 : 14,
    };
  }

  function cellTint(board, cell) {
    if (board.shape === 'hex') {
      // a 3-colouring of the hexagons: neighbours always differ
      const k = (cell.rank - cell.file) / 2 - cell.file;
      return HEX_TINTS[((k % 3) + 3) % 3];
    }
    return (cell.file + cell.rank) % 2 === 0 ? DARK : LIGHT;
  }

  // a castle shows its owner's colour, softened so pieces on it stay visible
  function castleFill(colour, tint) {
    if (isLight(colour)) return mix(colour, '#ffffff', 0.4);
    const [r, g, b] = hexToRgb(colour);
    return mix(colour, tint, 0.299 * r + 0.587 * g + 0.114 * b < 70 ? 0.55 : 0.3);
  }

  function castleOwners(board) {
    const owners = new Map();
    for (const [seat, cells] of Object.entries(board.castles || {})) {
      for (const c of cells) owners.set(c, seat);
    }
    return owners;
  }

  // Draws the cells and labels; pieces, marks and arrows are updated by render().
  function buildBoard(state) {
    const board = state.board;
    const g = buildGeometry(board, app.viewSeat);
    const [vx, vy, vw, vh] = g.viewBox;
    const root = svg('svg', {
      xmlns: SVGNS, class: 'canter-board', viewBox: `${fmt(vx)} ${fmt(vy)} ${fmt(vw)} ${fmt(vh)}`,
      width: fmt(vw), height: fmt(vh), role: 'img',
      'aria-label': `${board.variant} board seen from ${app.viewSeat}`,
      'data-variant': board.variant, 'data-view': app.viewSeat,
    });
    root.appendChild(svg('style', {}, BOARD_STYLE));
    root.appendChild(svg('rect', {
      x: fmt(vx), y: fmt(vy), width: fmt(vw), height: fmt(vh), fill: '#faf6ee', class: 'background',
    }));
    const owners = castleOwners(board);
    const cellsG = svg('g', { class: 'cells' });
    const cellEls = new Map();
    const nameSize = HEX_R * 0.27;
    for (const c of board.cells) {
      const owner = owners.get(c.name);
      const group = svg('g', {
        class: owner ? `cell castle castle-${owner}` : 'cell', 'data-cell': c.name,
      });
      if (owner) group.setAttribute('data-owner', owner);
      const points = g.polygons.get(c.name).map((p) => `${fmt(p[0])},${fmt(p[1])}`).join(' ');
      const tint = cellTint(board, c);
      const colour = seatColour(owner);
      group.appendChild(svg('polygon', {
        class: 'cell-bg', points,
        fill: owner ? castleFill(colour, tint) : tint,
        stroke: owner ? mix(colour, '#000000', isLight(colour) ? 0.75 : 0.35) : null,
      }));
      group.appendChild(svg('polygon', { class: 'cell-mark', points }));
      if (g.hex) {
        // hexagonal coordinates are hard to read off the edges: name every cell faintly
        const [x, y] = g.centres.get(c.name);
        group.appendChild(svg('text', {
          class: 'cell-name', x: fmt(x), y: fmt(y + HEX_R * 0.74), 'font-size': fmt(nameSize),
          'text-anchor': 'middle', 'dominant-baseline': 'central',
        }, c.name));
      }
      cellsG.appendChild(group);
      cellEls.set(c.name, group);
    }
    root.appendChild(cellsG);
    const labelsG = svg('g', { class: 'labels' });
    for (const [text, [x, y]] of g.labels) {
      labelsG.appendChild(svg('text', {
        class: 'label', x: fmt(x), y: fmt(y), 'font-size': g.labelSize,
        'text-anchor': 'middle', 'dominant-baseline': 'central',
      }, text));
    }
    root.appendChild(labelsG);
    const arrowsG = svg('g', { class: 'arrows' });
    root.appendChild(arrowsG);
    root.addEventListener('click', onBoardClick);
    const holder = $('board');
    holder.replaceChildren(root);
    app.board = {
      key: boardKey(state), geom: g, root, cellEls, arrowsG, pieces: new Map(),
      lastKey: null, arrowsKey: null,
    };
  }

  function boardKey(state) {
    const b = state.board;
    return `${b.variant}|${b.shape}|${b.cells.length}|${b.seats.join(',')}|${app.viewSeat}`;
  }

  function drawPiece(cell, piece) {
    const g = app.board.geom;
    const [x, y] = g.centres.get(cell);
    const fill = seatColour(piece.seat);
    const light = isLight(fill);
    const ink = light ? '#2b2b2b' : '#f4f4f4';
    const node = svg('g', {
      class: 'piece', 'data-cell': cell, 'data-seat': piece.seat, 'data-kind': piece.kind,
    });
    const r = g.pieceR;
    node.appendChild(svg('circle', {
      class: 'body', cx: fmt(x), cy: fmt(y), r: fmt(r), fill,
      stroke: light ? '#3a3a3a' : mix(fill, '#000000', 0.55),
    }));
    if (piece.kind === 'knight') {
      node.appendChild(svg('circle', { class: 'ring', cx: fmt(x), cy: fmt(y), r: fmt(r * 0.78), stroke: ink }));
      node.appendChild(svg('text', {
        x: fmt(x), y: fmt(y), fill: ink, 'font-size': fmt(r * 1.05),
        'text-anchor': 'middle', 'dominant-baseline': 'central',
      }, 'K'));
    }
    node.appendChild(svg('title', {}, `${piece.seat} ${piece.kind} on ${cell}`));
    return node;
  }

  function updatePieces(pieces) {
    const b = app.board;
    for (const [cell, node] of b.pieces) {
      const p = pieces[cell];
      if (!p || node.dataset.seat !== p.seat || node.dataset.kind !== p.kind) {
        node.remove();
        b.pieces.delete(cell);
      }
    }
    for (const [cell, p] of Object.entries(pieces)) {
      if (b.pieces.has(cell) || !b.cellEls.has(cell)) continue;
      const node = drawPiece(cell, p);
      const group = b.cellEls.get(cell);
      group.insertBefore(node, group.querySelector('.target'));
      b.pieces.set(cell, node);
    }
    for (const [cell, node] of b.pieces) node.classList.toggle('selected', cell === app.selected);
  }

  function arrowPath(move, shorten) {
    const g = app.board.geom;
    const pts = route(move).map((c) => g.centres.get(c.toUpperCase()) || g.centres.get(c));
    if (pts.length < 2 || pts.some((p) => !p)) return null;
    const last = pts[pts.length - 1];
    const prev = pts[pts.length - 2];
    const len = Math.hypot(last[0] - prev[0], last[1] - prev[1]) || 1;
    const cut = Math.min(shorten, len / 2);
    const end = [last[0] - (last[0] - prev[0]) * cut / len, last[1] - (last[1] - prev[1]) * cut / len];
    const all = pts.slice(0, -1).concat([end]);
    return 'M ' + all.map((p) => `${fmt(p[0])} ${fmt(p[1])}`).join(' L ');
  }

  function arrowHead(id, colour) {
    const marker = svg('marker', {
      id, viewBox: '0 0 10 10', refX: '4', refY: '5', markerWidth: '3', markerHeight: '3',
      orient: 'auto', markerUnits: 'strokeWidth',
    });
    marker.appendChild(svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', fill: colour }));
    return marker;
  }

  function updateArrows(snap) {
    const b = app.board;
    const s = app.state;
    const a = s.analysis;
    // arrows only while the analysis runs on the shown position (its lines stay listed)
    const lines = a && a.running && a.ply === shownPlyNumber() ? a.lines || [] : [];
    const key = JSON.stringify([snap.move, lines.map((l) => [l.multipv, (l.pv || [])[0]])]);
    if (key === b.arrowsKey) return;
    b.arrowsKey = key;
    // the last move's cells are tinted too
    for (const group of b.cellEls.values()) group.classList.remove('last');
    const unit = b.geom.unit;
    const defs = svg('defs');
    const nodes = [defs];
    if (snap.move) {
      for (const c of route(snap.move)) {
        const group = b.cellEls.get(c.toUpperCase()) || b.cellEls.get(c);
        if (group) group.classList.add('last');
      }
      const d = arrowPath(snap.move, unit * 0.22);
      if (d) {
        defs.appendChild(arrowHead('head-last', LAST_MOVE_COLOUR));
        nodes.push(svg('path', {
          class: 'lastmove', d, 'data-move': snap.move, stroke: LAST_MOVE_COLOUR,
          'stroke-width': fmt(unit * 0.12), 'stroke-opacity': '0.8', 'marker-end': 'url(#head-last)',
        }));
      }
    }
    // draw line 1 last so it lies on top
    const sorted = lines.slice().sort((a, b2) => (b2.multipv || 0) - (a.multipv || 0));
    for (const line of sorted) {
      const first = (line.pv || [])[0];
      if (!first) continue;
      const rank = Math.max(1, line.multipv || 1);
      const [w, colour, opacity] = ARROW_STYLES[Math.min(rank, ARROW_STYLES.length) - 1];
      const d = arrowPath(first, unit * 0.3);
      if (!d) continue;
      defs.appendChild(arrowHead(`head-pv${rank}`, colour));
      nodes.push(svg('path', {
        class: 'arrow', d, 'data-move': first, 'data-multipv': rank, stroke: colour,
        'stroke-width': fmt(unit * w), 'stroke-opacity': opacity, 'marker-end': `url(#head-pv${rank})`,
      }));
    }
    b.arrowsG.replaceChildren(...nodes);
  }

  function updateTargets() {
    const b = app.board;
    const wanted = app.selected ? app.targets : new Map();
    for (const group of b.cellEls.values()) {
      const t = group.querySelector('.target');
      const cell = group.dataset.cell;
      if (t && !wanted.has(cell)) t.remove();
      if (!t && wanted.has(cell)) {
        const [x, y] = b.geom.centres.get(cell);
        const moves = wanted.get(cell);
        const circle = svg('circle', {
          class: 'target', 'data-cell': cell, cx: fmt(x), cy: fmt(y), r: fmt(b.geom.unit * 0.2),
        });
        circle.appendChild(svg('title', {}, moves.join(' or ')));
        group.appendChild(circle);
      }
    }
    b.root.classList.toggle('playable', canPlay());
  }

  // ---------------------------------------------------------------- clicks on the board

  function onBoardClick(ev) {
    const s = app.state;
    if (!s) return;
    const target = ev.target.closest('.target');
    if (target) {
      chooseTarget(target.dataset.cell);
      return;
    }
    const group = ev.target.closest('.cell');
    if (!group) {
      clearSelection();
      render();
      return;
    }
    const cell = group.dataset.cell;
    if (app.selected && app.targets.has(cell)) {
      chooseTarget(cell);
      return;
    }
    const piece = shownSnapshot().pieces[cell];
    if (!piece || cell === app.selected) {
      clearSelection();
      render();
      return;
    }
    if (!isLive()) {
      clearSelection();
      render();
      showMessage('A past position is shown: go to the last move (») to play.', false);
      return;
    }
    if (!canPlay() || piece.seat !== s.current.turn) {
      clearSelection();
      render();
      return;
    }
    selectPiece(cell);
  }

  async function selectPiece(cell) {
    clearSelection();
    app.selected = cell;
    app.selectedPosition = app.state.current.position;
    render();
    const seq = ++app.legalSeq;
    let moves;
    try {
      const answer = await api('GET', '/api/legal?cell=' + encodeURIComponent(cell));
      moves = (answer && answer.moves) || [];
    } catch (err) {
      if (seq === app.legalSeq) showMessage(err.message, true);
      moves = [];
    }
    if (seq !== app.legalSeq || app.selected !== cell) return;
    const targets = new Map();
    for (const move of moves) {
      const cells = route(move);
      const end = cells[cells.length - 1];
      if (!targets.has(end)) targets.set(end, []);
      targets.get(end).push(move);
    }
    app.targets = targets;
    if (!moves.length) showMessage(`The piece on ${cell} has no legal move.`, false);
    render();
    document.body.dataset.targets = cell;
  }

  function clearSelection() {
    app.selected = null;
    app.selectedPosition = null;
    app.targets = new Map();
    app.legalSeq += 1;
    showCandidates([]);  // a choice of moves belongs to the selection and its position
  }

  function chooseTarget(cell) {
    const moves = app.targets.get(cell) || [];
    if (moves.length === 1) postMove(moves[0]);
    else if (moves.length > 1) showCandidates(moves);
  }

  function showCandidates(moves) {
    const box = $('candidates');
    box.replaceChildren();
    if (!moves || !moves.length) {
      box.hidden = true;
      return;
    }
    box.appendChild(el('span', { class: 'candidates-label' }, 'Several moves end there; choose one:'));
    for (const move of moves) {
      box.appendChild(el('button', {
        type: 'button', class: 'candidate', 'data-move': move, title: `Play ${move}`,
      }, move));
    }
    box.appendChild(el('button', { type: 'button', class: 'candidates-cancel', title: 'Choose none' }, 'Cancel'));
    box.hidden = false;
  }

  async function postMove(move) {
    try {
      const state = await api('POST', '/api/move', { move });
      showCandidates([]);
      clearSelection();
      if (state) applyState(state);
      render();
      $('move-input').value = '';
      return true;
    } catch (err) {
      if (err.status === 409 && err.data && Array.isArray(err.data.candidates)) {
        showCandidates(err.data.candidates);
        showMessage(err.message, false);
      } else {
        showMessage(err.message, true);
      }
      return false;
    } finally {
      document.body.dataset.moved = String(Date.now());
    }
  }

  // ---------------------------------------------------------------- navigation

  async function navigate(ply) {
    const s = app.state;
    if (!s) return;
    const n = Math.max(0, Math.min(ply, s.moves.length));
    clearSelection();
    showCandidates([]);
    const seq = ++app.navSeq;
    if (n === s.moves.length) {
      app.shownPly = null;
      app.snapshot = null;
      render();
      followAnalysis();
      return;
    }
    const key = snapshotKey(s, n);
    let snap;
    try {
      snap = await api('GET', '/api/ply?n=' + n);
    } catch (err) {
      showMessage(err.message, true);
      return;
    }
    if (seq !== app.navSeq) return;
    app.shownPly = n;
    app.snapshot = snap;
    app.snapshotKey = key;
    render();
    followAnalysis();
  }

  function step(delta) {
    if (!app.state) return;
    navigate(shownPlyNumber() + delta);
  }

  // Analysis follows the shown position.
  async function followAnalysis() {
    const s = app.state;
    if (!s || !s.analysis || !s.analysis.running) {
      app.analysisAskedFor = null;
      return;
    }
    const ply = shownPlyNumber();
    if (s.analysis.ply === ply || app.analysisAskedFor === ply) return;
    app.analysisAskedFor = ply;
    const asked = snapshotKey(s, ply);
    try {
      applyState(await api('POST', '/api/analysis',
        { action: 'start', multipv: Number($('multipv').value), ply }));
    } catch (err) {
      // A start the page sent by itself can race a change of the game (a new game, a load,
      // an undo past the ply) and be refused for it (409, or no such position): the page
      // follows the game as it now is, and the person who changed it is not told of a
      // request they never made.
      let now = null;
      try {
        now = await api('GET', '/api/state');
      } catch (ignored) {
        now = null;
      }
      if (now && (ply > now.moves.length || snapshotKey(now, ply) !== asked)) {
        if (app.analysisAskedFor === ply) app.analysisAskedFor = null;
        applyState(now);
        return;
      }
      showMessage(err.message, true);
    }
  }

  // ---------------------------------------------------------------- panels

  function render() {
    const s = app.state;
    if (!s) return;
    if (!app.board || app.board.key !== boardKey(s)) buildBoard(s);
    const snap = shownSnapshot();
    updatePieces(snap.pieces || {});
    updateArrows(snap);
    updateTargets();
    renderStatus(snap);
    renderSeats();
    renderMoves();
    renderThinking();
    renderAnalysis();
    renderControls();
    renderFault();
    renderWatch();
    const pos = $('position-text');
    if (pos.value !== (snap.position || '')) pos.value = snap.position || '';
    document.body.dataset.ply = String(shownPlyNumber());
    document.body.dataset.version = String(s.version);
  }

  function renderStatus(snap) {
    const s = app.state;
    const status = $('status');
    let text;
    if (!isLive()) {
      const who = snap.result ? snap.result : snap.turn ? `${snap.turn} to move` : '';
      text = `Position after move ${shownPlyNumber()} of ${s.moves.length} (${who}): ` +
        'moves cannot be made here, go to the last move (») to play.';
    } else if (s.result) {
      text = s.result.text;
    } else if (s.current.turn) {
      const seat = seatByName(s.current.turn);
      text = `${s.current.turn} to move`;
      if (seat && seat.player === 'engine') text += ` (${engineName(seat.engine)})`;
      else if (seat && seat.player === 'human' && !s.watch) text += ': your move';
      if (s.paused) text += ' · paused';
    } else {
      text = '';
    }
    status.textContent = text;
    status.classList.toggle('past', !isLive());
    status.classList.toggle('over', !!s.result && isLive());
    if (s.current.turn) status.dataset.turn = s.current.turn;
    else delete status.dataset.turn;
    const result = $('result');
    if (s.result && s.result.ranking && s.result.ranking.length) {
      const parts = [];
      let place = 1;
      // A team game ranks teams: a team's seats share its place, the next team is next.
      const teams = (s.board.teams || []).length > 0;
      for (const group of s.result.ranking) {
        parts.push(`${ordinal(place)}: ${group.join(teams ? '+' : ', ')}`);
        place += teams ? 1 : group.length;
      }
      const text2 = `Final ranking${teams ? ' of the teams' : ''}: ${parts.join(' · ')}`;
      if (result.textContent !== text2) result.textContent = text2;
      result.hidden = false;
    } else {
      result.textContent = '';
      result.hidden = true;
    }
  }

  function renderSeats() {
    const s = app.state;
    const box = $('seats');
    const key = JSON.stringify(s.seats.map((x) => [x.name, x.player, x.engine, x.limit, x.clock]));
    if (key !== app.seatsKey) {
      app.seatsKey = key;
      box.replaceChildren();
      for (const seat of s.seats) {
        const row = el('div', { class: 'seat', 'data-seat': seat.name });
        const swatch = el('span', { class: 'swatch', 'aria-hidden': 'true' });
        swatch.style.background = seatColour(seat.name);
        row.appendChild(swatch);
        // Team games: the seat's partnership, from the referee's board answer.
        const team = (s.board.teams || []).find((t) => t.includes(seat.name));
        if (team) row.dataset.team = team.join('+');
        row.appendChild(el('span', {
          class: 'seat-name', title: team ? `team ${team.join(' + ')}` : seat.name,
        }, seat.name));
        let who = 'human';
        if (seat.player === 'engine') {
          const extra = [limitText(seat.limit), seat.clock && !seat.limit ? 'on its clock' : ''].filter(Boolean);
          who = engineName(seat.engine) + (extra.length ? ` (${extra.join(', ')})` : '');
        }
        row.appendChild(el('span', { class: 'seat-who', title: who }, who));
        row.appendChild(el('span', {
          class: 'clock', title: seat.clock ? `clock ${clockText(seat.clock)}` : 'untimed: time used',
        }));
        row.appendChild(el('span', { class: 'seat-pieces', title: 'pieces on the board' }));
        box.appendChild(row);
      }
    }
    for (const seat of s.seats) {
      const row = box.querySelector(`.seat[data-seat="${CSS.escape(seat.name)}"]`);
      if (!row) continue;
      row.classList.toggle('out', !!seat.out);
      row.classList.toggle('to-move', !s.result && s.current.turn === seat.name);
      row.classList.toggle('running', !!seat.running);
      row.classList.toggle('untimed', seat.time_left == null);
      const pieces = row.querySelector('.seat-pieces');
      const text = `${seat.pieces} pcs`;
      if (pieces.textContent !== text) pieces.textContent = text;
    }
    tickClocks();
  }

  function tickClocks() {
    const s = app.state;
    if (!s) return;
    const elapsed = (performance.now() - app.receivedAt) / 1000;
    for (const seat of s.seats) {
      const row = document.querySelector(`#seats .seat[data-seat="${CSS.escape(seat.name)}"]`);
      if (!row) continue;
      const clock = row.querySelector('.clock');
      const run = seat.running && !s.paused ? elapsed : 0;
      let text;
      if (seat.time_left != null) {
        const left = Math.max(0, seat.time_left - run);
        text = fmtClock(left);
        clock.classList.toggle('low', left < 10);
        clock.dataset.seconds = left.toFixed(1);
      } else {
        const used = (seat.used || 0) + run;
        text = fmtClock(used);
        clock.dataset.seconds = used.toFixed(1);
      }
      if (clock.textContent !== text) clock.textContent = text;
    }
  }

  function renderMoves() {
    const s = app.state;
    const box = $('moves');
    const n = s.seats.length || 1;
    const head = `${s.start}|${n}`;
    const done = app.movesDrawn;
    // moves are only appended during a game: keep the drawn ones (tests hold references)
    const extends_ = done && done.head === head && done.moves.length <= s.moves.length &&
      done.moves.every((m, i) => m === s.moves[i]);
    if (!extends_) {
      box.replaceChildren();
      box.appendChild(el('span', { class: 'start-pos', 'data-ply': '0', title: 'Show the start position' }, 'start'));
      app.movesDrawn = { head, moves: [], row: null };
    }
    const drawn = app.movesDrawn;
    if (drawn.moves.length < s.moves.length) {
      const empty = box.querySelector('.empty');
      if (empty) empty.remove();
      for (let i = drawn.moves.length; i < s.moves.length; i++) {
        const move = s.moves[i];
        if (i % n === 0 || !drawn.row) {
          drawn.row = el('div', { class: 'round' });
          drawn.row.appendChild(el('span', { class: 'round-no' }, `${Math.floor(i / n) + 1}.`));
          box.appendChild(drawn.row);
        }
        drawn.row.appendChild(el('span', {
          class: 'move', 'data-ply': i + 1, 'data-move': move, tabindex: '-1',
          title: `Show the position after ${move}`,
        }, move));
        drawn.moves.push(move);
      }
    }
    if (!s.moves.length && !box.querySelector('.empty')) {
      box.appendChild(el('div', { class: 'empty' }, 'No moves yet.'));
    }
    const shown = String(shownPlyNumber());
    let current = null;
    for (const span of box.querySelectorAll('.move, .start-pos')) {
      const on = span.dataset.ply === shown;
      span.classList.toggle('current', on);
      if (on) current = span;
    }
    if (current && current.scrollIntoView) current.scrollIntoView({ block: 'nearest' });
  }

  function renderThinking() {
    const s = app.state;
    const box = $('thinking');
    const t = s.thinking;
    const key = JSON.stringify(t);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.replaceChildren();
    box.classList.toggle('idle', !t);
    if (!t) {
      box.textContent = 'No engine is thinking.';
      return;
    }
    const head = el('div', { class: 'think-head' });
    head.appendChild(el('span', { class: 'think-seat' }, `${t.seat} (${engineName(t.engine)})`));
    const stats = [
      ['depth', 'depth', t.depth], ['score', 'score', t.score], ['nodes', 'nodes', fmtInt(t.nodes)],
      ['nps', 'nps', fmtInt(t.nps)], ['time', 'time', t.time != null ? `${Number(t.time).toFixed(1)} s` : ''],
    ];
    const grid = el('div', { class: 'stats' });
    for (const [cls, label, value] of stats) {
      const item = el('span', { class: `stat ${cls}` });
      item.appendChild(el('small', {}, label));
      item.appendChild(document.createTextNode(' '));
      item.appendChild(el('b', {}, value == null ? '' : String(value)));
      grid.appendChild(item);
    }
    box.appendChild(head);
    box.appendChild(grid);
    box.appendChild(el('div', { class: 'pv', title: 'principal variation' }, (t.pv || []).join(' ')));
  }

  function renderAnalysis() {
    const s = app.state;
    const a = s.analysis || { running: false, lines: [] };
    $('analysis-stop').disabled = !a.running;
    const info = $('analysis-info');
    info.textContent = a.running ? `running on move ${a.ply}` : '';
    if (a.multipv && document.activeElement !== $('multipv') && app.analysisKey === '') {
      $('multipv').value = String(a.multipv);
    }
    const lines = a.lines || [];
    const key = JSON.stringify([a.ply, a.running, lines]);
    if (key === app.analysisKey) return;
    app.analysisKey = key;
    const box = $('analysis-lines');
    box.replaceChildren();
    const stale = a.ply !== shownPlyNumber();
    for (const line of lines) {
      const row = el('div', { class: 'analysis-line', 'data-multipv': line.multipv || 1 });
      if (stale) row.classList.add('stale');
      row.appendChild(el('span', { class: 'score' }, line.score == null ? '' : String(line.score)));
      row.appendChild(el('span', { class: 'depth', title: 'depth' }, `d${line.depth == null ? '' : line.depth}`));
      row.appendChild(el('span', { class: 'pv' }, (line.pv || []).join(' ')));
      box.appendChild(row);
    }
    if (!lines.length) box.appendChild(el('div', { class: 'empty' }, a.running ? 'Searching…' : 'Not analysing.'));
  }

  function resignSeat() {
    const s = app.state;
    const turn = seatByName(s.current.turn);
    if (turn && turn.player === 'human' && !turn.out) return turn.name;
    const human = s.seats.find((x) => x.player === 'human' && !x.out);
    return human ? human.name : null;
  }

  function renderControls() {
    const s = app.state;
    const watch = !!s.watch;
    const over = !!s.result;
    const play = canPlay();
    $('undo').disabled = watch || !s.moves.length;
    $('resign').disabled = watch || over || !resignSeat();
    $('resign').title = resignSeat() ? `Resign for ${resignSeat()}` : 'No human seat can resign';
    $('claim').disabled = watch || over || !s.claimable;
    $('pause').disabled = watch || over || s.paused;
    $('resume').disabled = watch || !s.paused;
    $('move-input').disabled = !play;
    $('move-submit').disabled = !play;
    $('new-game').disabled = watch;
    $('set-position').disabled = watch;
    $('load-file').disabled = watch;
    $('flip').title = `Rotate the board to the next seat (now seen from ${app.viewSeat})`;
    const shown = shownPlyNumber();
    $('nav-first').disabled = shown === 0;
    $('nav-prev').disabled = shown === 0;
    $('nav-next').disabled = shown >= s.moves.length;
    $('nav-last').disabled = shown >= s.moves.length;
    document.body.classList.toggle('watching', watch);
    document.body.classList.toggle('past', !isLive());
  }

  function renderFault() {
    const f = app.state.fault;
    const box = $('fault');
    box.hidden = !f;
    box.querySelector('.fault-text').textContent = f
      ? `Engine ${f.name || engineName(f.engine)} failed: ${f.reason}` : '';
    box.dataset.engine = f ? String(f.engine) : '';
  }

  function renderWatch() {
    const w = app.state.watch;
    $('watch-box').hidden = !w;
    if (!w) return;
    const select = $('watch-game');
    if (select.options.length !== w.games) {
      select.replaceChildren();
      for (let i = 0; i < w.games; i++) select.appendChild(el('option', { value: i }, `Game ${i + 1}`));
    }
    if (document.activeElement !== select) select.value = String(w.game);
    select.title = `Game of ${w.file} to follow`;
  }

  // ---------------------------------------------------------------- new game dialog

  function seatNamesFor(variant) {
    const s = app.state;
    if (s.variant_seats && s.variant_seats[variant]) return s.variant_seats[variant];
    if (variant === s.variant) return s.board.seats;
    return app.knownSeats[variant] || null;
  }

  function parseClock(text) {
    const t = String(text).trim();
    if (!t) return null;
    const m = /^(\d+):(\d{1,2})$/.exec(t);
    if (m) return Number(m[1]) * 60 + Number(m[2]);
    const x = Number(t);
    return Number.isFinite(x) && x >= 0 ? x : NaN;
  }

  function numberInput(cls, label, value, attrs) {
    const wrap = el('label', { class: `field ${cls}-field` }, label);
    const input = el('input', Object.assign({ type: 'number', class: cls, min: '0' }, attrs || {}));
    if (value != null) input.value = String(value);
    wrap.appendChild(input);
    return wrap;
  }

  function buildSeatRows(variant) {
    const s = app.state;
    const box = $('new-seats');
    box.replaceChildren();
    let names = seatNamesFor(variant);
    const note = $('new-error');
    note.hidden = true;
    box.dataset.template = names ? '' : 'yes';
    if (!names) {
      // The page cannot know the seats of a variant it has not seen yet: one row for the
      // first seat and one for all the others (startNewGame learns the seats from the server).
      names = ['first seat', 'other seats'];
      note.textContent = `The seats of ${variant} are not known yet: the first row is for its ` +
        'first seat, the second for all the others.';
      note.hidden = false;
    }
    const same = variant === s.variant;
    names.forEach((name, i) => {
      const cur = same ? s.seats[i] : null;
      const player = cur ? cur.player : i === 0 ? 'human' : 'engine';
      const limit = cur ? cur.limit || {} : { movetime: 1 };
      const clock = cur ? cur.clock : null;
      const row = el('fieldset', { class: 'new-seat', 'data-seat': name });
      const legend = el('legend');
      const sw = el('span', { class: 'swatch', 'aria-hidden': 'true' });
      sw.style.background = seatColour(name);
      legend.appendChild(sw);
      legend.appendChild(document.createTextNode(name));
      row.appendChild(legend);
      const playerSel = el('select', { class: 'seat-player', title: `Who plays ${name}` });
      for (const p of ['human', 'engine']) playerSel.appendChild(el('option', { value: p }, p));
      playerSel.value = player;
      const engineSel = el('select', { class: 'seat-engine', title: `Engine for ${name}` });
      for (const e of s.engines || []) {
        engineSel.appendChild(el('option', { value: e.index }, e.name + (e.alive === false ? ' (down)' : '')));
      }
      if (cur && cur.engine != null) engineSel.value = String(cur.engine);
      const top = el('div', { class: 'row' });
      top.appendChild(playerSel);
      top.appendChild(engineSel);
      row.appendChild(top);
      const limits = el('div', { class: 'row limits' });
      limits.appendChild(numberInput('limit-movetime', 'movetime (s)', limit.movetime, { step: 'any' }));
      limits.appendChild(numberInput('limit-depth', 'depth', limit.depth, { step: '1' }));
      limits.appendChild(numberInput('limit-nodes', 'nodes', limit.nodes, { step: '1' }));
      limits.appendChild(numberInput('limit-skill', 'skill', limit.skill, { step: '1', max: '20' }));
      row.appendChild(limits);
      const clocks = el('div', { class: 'row clocks' });
      const base = el('label', { class: 'field' }, 'clock (m:ss or s)');
      base.appendChild(el('input', {
        type: 'text', class: 'clock-base', placeholder: 'untimed', value: clock ? fmtClock(clock.base) : null,
      }));
      clocks.appendChild(base);
      clocks.appendChild(numberInput('clock-inc', '+ inc (s)', clock ? clock.inc : null, { step: 'any' }));
      row.appendChild(clocks);
      const sync = () => {
        const engine = playerSel.value === 'engine';
        engineSel.disabled = !engine;
        limits.classList.toggle('off', !engine);
        for (const input of limits.querySelectorAll('input')) input.disabled = !engine;
      };
      playerSel.addEventListener('change', sync);
      sync();
      box.appendChild(row);
    });
  }

  function openNewDialog() {
    const s = app.state;
    if (!s) return;
    const select = $('new-variant');
    select.replaceChildren();
    for (const v of s.variants || [s.variant]) select.appendChild(el('option', { value: v }, v));
    select.value = s.variant;
    buildSeatRows(s.variant);
    $('new-position').value = '';
    const dialog = $('new-dialog');
    if (typeof dialog.showModal === 'function') dialog.showModal();
    else dialog.setAttribute('open', '');
  }

  function closeNewDialog() {
    const dialog = $('new-dialog');
    if (typeof dialog.close === 'function' && dialog.open) dialog.close();
    else dialog.removeAttribute('open');
  }

  function collectNewGame() {
    const seats = [];
    for (const row of $('new-seats').querySelectorAll('.new-seat')) {
      const name = row.dataset.seat;
      const num = (cls) => {
        const input = row.querySelector('.' + cls);
        const t = input.value.trim();
        if (!t || input.disabled) return null;
        const x = Number(t);
        if (!Number.isFinite(x) || x < 0) throw new Error(`${name}: ${cls.replace('-', ' ')} must be a number ≥ 0, not "${t}"`);
        return x;
      };
      const player = row.querySelector('.seat-player').value;
      const limit = {};
      for (const k of ['movetime', 'depth', 'nodes', 'skill']) {
        const x = num('limit-' + k);
        if (x !== null) limit[k] = x;
      }
      const baseText = row.querySelector('.clock-base').value;
      const base = parseClock(baseText);
      if (Number.isNaN(base)) throw new Error(`${name}: clock must be m:ss or seconds, not "${baseText.trim()}"`);
      const inc = num('clock-inc');
      const engineSel = row.querySelector('.seat-engine');
      seats.push({
        player,
        engine: engineSel.value === '' ? 0 : Number(engineSel.value),
        limit: player === 'engine' ? limit : {},
        clock: base ? { base, inc: inc || 0 } : null,
      });
    }
    const position = $('new-position').value.trim();
    return { variant: $('new-variant').value, position: position || null, seats };
  }

  async function startNewGame() {
    const note = $('new-error');
    let body;
    try {
      body = collectNewGame();
    } catch (err) {
      note.textContent = err.message;
      note.hidden = false;
      return;
    }
    try {
      let state;
      if ($('new-seats').dataset.template === 'yes') {
        // learn the variant's seats with a default game, then start the one asked for
        const probe = await api('POST', '/api/new', { variant: body.variant, position: body.position, seats: null });
        const names = probe.board.seats;
        app.knownSeats[body.variant] = names;
        const [first, rest] = body.seats;
        body.seats = names.map((_, i) => (i === 0 ? first : rest));
      }
      state = await api('POST', '/api/new', body);
      closeNewDialog();
      app.shownPly = null;
      app.snapshot = null;
      clearSelection();
      showCandidates([]);
      showMessage('', false);
      applyState(state);
    } catch (err) {
      note.textContent = err.message;
      note.hidden = false;
      showMessage(err.message, true);
    }
  }

  // ---------------------------------------------------------------- files

  function download(url, name) {
    const a = el('a', { href: url, download: name });
    document.body.appendChild(a);
    a.click();
    a.remove();
  }

  function exportSvg() {
    const root = app.board && app.board.root;
    if (!root) return;
    const copy = root.cloneNode(true);
    copy.removeAttribute('style');
    for (const t of copy.querySelectorAll('.target')) t.remove();
    copy.classList.remove('playable');
    const text = '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(copy);
    const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    const s = app.state;
    download(url, `${s.variant}-${shownPlyNumber()}.svg`);
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  async function loadFile(input) {
    const file = input.files && input.files[0];
    if (!file) return;
    let text;
    try {
      text = await file.text();
    } catch (err) {
      showMessage(`cannot read ${file.name}: ${err.message}`, true);
      return;
    }
    input.value = '';
    try {
      const state = await api('POST', '/api/load', text, true);
      app.shownPly = null;
      app.snapshot = null;
      clearSelection();
      applyState(state);
      showMessage(`Loaded ${file.name}.`, false);
    } catch (err) {
      showMessage(`${file.name}: ${err.message}`, true);
    }
  }

  async function copyPosition() {
    const input = $('position-text');
    const text = input.value;
    try {
      await navigator.clipboard.writeText(text);
    } catch (err) {
      input.select();
      document.execCommand('copy');
    }
    showMessage('Position string copied.', false);
  }

  // ---------------------------------------------------------------- wiring

  function wire() {
    $('new-game').addEventListener('click', openNewDialog);
    $('new-variant').addEventListener('change', (ev) => buildSeatRows(ev.target.value));
    $('new-start').addEventListener('click', startNewGame);
    $('new-cancel').addEventListener('click', closeNewDialog);
    $('new-form').addEventListener('submit', (ev) => ev.preventDefault());
    $('undo').addEventListener('click', () => {
      clearSelection();
      showCandidates([]);
      act('/api/undo', {});
    });
    $('resign').addEventListener('click', () => {
      const seat = resignSeat();
      if (seat) act('/api/resign', { seat });
    });
    $('claim').addEventListener('click', () => act('/api/claim', {}));
    $('pause').addEventListener('click', () => act('/api/pause', {}));
    $('resume').addEventListener('click', () => act('/api/resume', {}));
    $('flip').addEventListener('click', () => {
      const s = app.state;
      if (!s) return;
      const seats = s.board.seats;
      app.viewSeat = seats[(seats.indexOf(app.viewSeat) + 1) % seats.length];
      render();
    });
    $('export-svg').addEventListener('click', exportSvg);
    $('save-game').addEventListener('click', () => download('/api/save?token=' + encodeURIComponent(TOKEN), 'game.txt'));
    $('load-file').addEventListener('change', (ev) => loadFile(ev.target));
    $('watch-game').addEventListener('change', (ev) => act('/api/watch', { game: Number(ev.target.value) }));
    $('restart-engine').addEventListener('click', () => {
      const f = app.state && app.state.fault;
      act('/api/restart', { engine: f ? f.engine : 0 });
    });
    $('copy-position').addEventListener('click', copyPosition);
    $('set-position').addEventListener('click', async () => {
      const text = $('paste-position').value.trim();
      if (!text) {
        showMessage('Paste a position string first.', true);
        return;
      }
      app.shownPly = null;
      app.snapshot = null;
      if (await act('/api/position', { position: text })) $('paste-position').value = '';
    });
    $('paste-position').addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') $('set-position').click();
    });
    $('move-form').addEventListener('submit', (ev) => {
      ev.preventDefault();
      const text = $('move-input').value.trim();
      if (text) postMove(text);
    });
    $('candidates').addEventListener('click', (ev) => {
      const button = ev.target.closest('button');
      if (!button) return;
      if (button.classList.contains('candidate')) postMove(button.dataset.move);
      else {
        showCandidates([]);
        clearSelection();
        render();
      }
    });
    $('moves').addEventListener('click', (ev) => {
      const span = ev.target.closest('.move, .start-pos');
      if (span) navigate(Number(span.dataset.ply));
    });
    $('nav-first').addEventListener('click', () => navigate(0));
    $('nav-prev').addEventListener('click', () => step(-1));
    $('nav-next').addEventListener('click', () => step(1));
    $('nav-last').addEventListener('click', () => app.state && navigate(app.state.moves.length));
    $('analysis-start').addEventListener('click', () => {
      if (!app.state) return;
      app.analysisAskedFor = shownPlyNumber();
      act('/api/analysis', { action: 'start', multipv: Number($('multipv').value), ply: shownPlyNumber() });
    });
    $('analysis-stop').addEventListener('click', () => act('/api/analysis', { action: 'stop' }));
    $('multipv').addEventListener('change', () => {
      const s = app.state;
      if (s && s.analysis && s.analysis.running) {
        act('/api/analysis', { action: 'start', multipv: Number($('multipv').value), ply: shownPlyNumber() });
      }
    });
    document.addEventListener('keydown', (ev) => {
      const tag = ev.target && ev.target.tagName;
      if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || $('new-dialog').open) return;
      if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
      const keys = {
        ArrowLeft: () => step(-1), ArrowRight: () => step(1),
        ArrowUp: () => navigate(0), Home: () => navigate(0),
        ArrowDown: () => app.state && navigate(app.state.moves.length),
        End: () => app.state && navigate(app.state.moves.length),
        Escape: () => {
          clearSelection();
          showCandidates([]);
          render();
        },
      };
      if (keys[ev.key] && app.state) {
        ev.preventDefault();
        keys[ev.key]();
      }
    });
    $('message').addEventListener('click', () => showMessage('', false));
    $('message').title = 'Click to dismiss';
    setInterval(tickClocks, 100);
  }

  wire();
  fetchState();
  connect();
})();
