"""Pictures of positions and games as SVG boards (the HTML page is in `html.py`).

Standard library only. A board is drawn from the variant's data: every cell (a square for
Camelot, a flat-topped hexagon for Tri-Camelot) is one element of class `cell`, every piece
one `<g>` of class `piece`, so tests (and style sheets) can find them.

Geometry. Camelot: square side S, file f and rank r at column f, row (16 - r). Tri-Camelot:
cells exist where file + rank is even and a rank is half a hexagon's height, so file f and
rank r sit at x = 1.5 R f, y = (sqrt 3 / 2) R (18 - r): the vertical neighbours (two ranks
apart) share a flat edge and the diagonal neighbours a slanted one.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

from canter.engine import Move, Position, format_move
from canter.engine.rules.variant import KNIGHT

# seat name -> (fill, outline, text colour on the piece)
SEAT_STYLE = {
    "white": ("#f7f3e8", "#2b2b2b", "#2b2b2b"),
    "black": ("#262626", "#000000", "#f0f0f0"),
    "blue": ("#2f6bd8", "#14336e", "#ffffff"),
    "red": ("#d23a32", "#6b1511", "#ffffff"),
    "green": ("#2f9a45", "#124a1f", "#ffffff"),
    "yellow": ("#e2b814", "#6e5807", "#2b2b2b"),
}
LIGHT, DARK = "#eedcb3", "#d2b07a"
HEX_TINTS = ("#eedcb3", "#e2c994", "#d6b57c")
CASTLE_TINT = 0.45  # how much of the owner's colour goes into a castle cell
ARROW = "#1f8f3a"
CAPTURE = "#d01c1c"

SQUARE = 44.0  # Camelot square side
HEX_R = 28.0  # Tri-Camelot hexagon circumradius
MARGIN = 30.0


def _fmt(x: float) -> str:
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _mix(colour: str, other: str, t: float) -> str:
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b, strict=True))


class Geometry:
    """Where each cell of a variant is drawn, and the picture's size."""

    def __init__(self, variant, view: int | None = None) -> None:
        self.variant = variant
        board = variant.board
        self.hex = len(board.directions) == 6
        self.top_rank = max(board.ranks)
        self.nfiles = len(board.files)
        if self.hex:
            self.unit = HEX_R
            self.dx = 1.5 * HEX_R
            self.dy = math.sqrt(3) / 2 * HEX_R
            half_w, half_h = HEX_R, self.dy
        else:
            self.unit = SQUARE
            self.dx = self.dy = SQUARE
            half_w = half_h = SQUARE / 2
        # centre of file 0 / top rank
        self.x0 = MARGIN + half_w
        self.y0 = MARGIN + half_h
        # Picture grid: columns (files) and rows (ranks, the top one first).
        self.cols = self.nfiles
        self.rows = self.top_rank - min(board.ranks) + 1
        # Quarter turns (clockwise) that bring the `view` seat's castle to the bottom:
        # square boards only (a hexagonal board turns by sixths, in the browser).
        self.quarter = self._quarter(view) if view is not None and not self.hex else 0
        cols, rows = (self.rows, self.cols) if self.quarter % 2 else (self.cols, self.rows)
        self.width = 2 * MARGIN + (cols - 1) * self.dx + 2 * half_w
        self.height = 2 * MARGIN + (rows - 1) * self.dy + 2 * half_h
        self.half_w, self.half_h = half_w, half_h
        self.piece_r = (0.36 * SQUARE) if not self.hex else (0.54 * HEX_R)

    def _turn(self, c: float, t: float, k: int) -> tuple[float, float]:
        """Column and row of picture point (c, t) after k clockwise quarter turns."""
        w, h = self.cols, self.rows
        for _ in range(k % 4):
            c, t = h - 1 - t, c
            w, h = h, w
        return c, t

    def _quarter(self, seat: int) -> int:
        cells = self.variant.own_castle[seat]
        c = sum(self.variant.board.coords[x][0] for x in cells) / len(cells)
        t = sum(self.top_rank - self.variant.board.coords[x][1] for x in cells) / len(cells)
        # The turn that puts the castle lowest in the picture (relative to its height).
        return max(range(4), key=lambda k: self._turn(c, t, k)[1]
                   / ((self.cols if k % 2 else self.rows) - 1 or 1))

    def point(self, c: float, t: float) -> tuple[float, float]:
        """Where picture point (column c, row t from the top, before turning) is drawn."""
        c, t = self._turn(c, t, self.quarter)
        return self.x0 + c * self.dx, self.y0 + t * self.dy

    def centre(self, cell: int) -> tuple[float, float]:
        f, r = self.variant.board.coords[cell]
        return self.point(f, self.top_rank - r)

    def outline(self, cell: int) -> str:
        """Points of the cell's polygon (hexagon) or None for squares."""
        x, y = self.centre(cell)
        pts = []
        for k in range(6):
            a = math.pi / 3 * k
            pts.append(f"{_fmt(x + HEX_R * math.cos(a))},{_fmt(y + HEX_R * math.sin(a))}")
        return " ".join(pts)

    def tint(self, cell: int) -> str:
        f, r = self.variant.board.coords[cell]
        if self.hex:
            # a 3-colouring: neighbours always differ
            return HEX_TINTS[((r - f) // 2 - f) % 3]
        return DARK if (f + r) % 2 == 0 else LIGHT


def board_svg(
    pos: Position,
    last_move: Move | None = None,
    title: str | None = None,
    status: bool = True,
    view: int | None = None,
) -> str:
    """One SVG document of `pos`; `last_move` (already played) is drawn as an arrow along its
    route with its captured cells crossed out. `view`: the seat whose castle is drawn at the
    bottom (square boards turn by quarters; default: as the board is written, rank 1 at the
    bottom)."""
    g = Geometry(pos.variant, view)
    footer = 26.0 if status else 0.0
    width, height = g.width, g.height + footer
    out: list[str] = [
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{_fmt(width)}" height="{_fmt(height)}" '
        f'viewBox="0 0 {_fmt(width)} {_fmt(height)}" '
        'font-family="DejaVu Sans, Verdana, Arial, sans-serif">',
    ]
    if title:
        out.append(f"<title>{html.escape(title)}</title>")
    out.append(
        "<defs>"
        f'<marker id="arrowhead" viewBox="0 0 10 10" refX="6" refY="5" markerWidth="4" '
        f'markerHeight="4" orient="auto-start-reverse">'
        f'<path d="M 0 0 L 10 5 L 0 10 z" fill="{ARROW}"/></marker>'
        "</defs>"
    )
    out.append(f'<rect x="0" y="0" width="{_fmt(width)}" height="{_fmt(height)}" '
               'fill="#faf6ee"/>')
    out.extend(_cells(pos, g))
    out.extend(_coordinates(g))
    if last_move is not None:
        out.extend(_last_move_marks(pos, g, last_move))
    out.extend(_pieces(pos, g))
    if last_move is not None:
        out.extend(_arrow(g, last_move))
    if status:
        out.append(
            f'<text x="{_fmt(width / 2)}" y="{_fmt(g.height + footer / 2)}" '
            'text-anchor="middle" dominant-baseline="middle" font-size="14" fill="#333">'
            f"{html.escape(status_text(pos, last_move))}</text>"
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def status_text(pos: Position, last_move: Move | None = None) -> str:
    v = pos.variant
    parts = []
    if last_move is not None:
        parts.append(f"last move {format_move(v, last_move)}")
    outcome = pos.outcome()
    parts.append(outcome.text() if outcome else f"{v.seats[pos.turn].name} to move")
    return " · ".join(parts)


def _cells(pos: Position, g: Geometry) -> list[str]:
    v = pos.variant
    out = ['<g class="cells" stroke="#7a6a4f" stroke-width="1">']
    for cell in v.cells:
        name = v.cell_name(cell)
        owner = v.castle_owner.get(cell)
        fill = g.tint(cell)
        extra, cls = "", "cell"
        if owner is not None:
            seat = v.seats[owner].name
            fill = _mix(fill, SEAT_STYLE[seat][0] if seat != "white" else "#ffffff", CASTLE_TINT)
            stroke = SEAT_STYLE[seat][1]
            extra = f' stroke="{stroke}" stroke-width="3"'
            cls = f"cell castle castle-{seat}"
        if g.hex:
            out.append(f'<polygon class="{cls}" data-cell="{name}" points="{g.outline(cell)}" '
                       f'fill="{fill}"{extra}/>')
        else:
            x, y = g.centre(cell)
            out.append(
                f'<rect class="{cls}" data-cell="{name}" x="{_fmt(x - g.half_w)}" '
                f'y="{_fmt(y - g.half_h)}" width="{_fmt(SQUARE)}" height="{_fmt(SQUARE)}" '
                f'fill="{fill}"{extra}/>'
            )
    out.append("</g>")
    if g.hex:
        # Hexagonal coordinates are hard to read off the edges: name every cell faintly.
        out.append('<g class="cell-names" font-size="7.5" fill="#8a7a5c" text-anchor="middle">')
        for cell in v.cells:
            x, y = g.centre(cell)
            out.append(f'<text x="{_fmt(x)}" y="{_fmt(y + g.half_h - 3)}">'
                       f"{v.cell_name(cell)}</text>")
        out.append("</g>")
    # castle towers: a small battlement drawn in the owner's colour
    for seat, cells in enumerate(v.own_castle):
        for cell in cells:
            out.append(_battlement(g, cell, SEAT_STYLE[v.seats[seat].name][1]))
    return out


def _battlement(g: Geometry, cell: int, colour: str) -> str:
    x, y = g.centre(cell)
    w = g.unit * 0.5
    top = y - g.half_h + 4
    h = 5.0
    step = w / 5
    path = [f"M {_fmt(x - w / 2)} {_fmt(top + h)}"]
    for k in range(5):
        x1 = x - w / 2 + k * step
        up = k % 2 == 0
        path.append(f"L {_fmt(x1)} {_fmt(top if up else top + h / 2)}")
        path.append(f"L {_fmt(x1 + step)} {_fmt(top if up else top + h / 2)}")
    path.append(f"L {_fmt(x + w / 2)} {_fmt(top + h)} Z")
    return f'<path class="castle-mark" d="{" ".join(path)}" fill="{colour}" opacity="0.7"/>'


def _coordinates(g: Geometry) -> list[str]:
    v = g.variant
    board = v.board
    out = ['<g class="coordinates" font-size="13" fill="#5a4a2f" text-anchor="middle" '
           'dominant-baseline="middle">']
    # Labels sit half a margin beyond the outer cells, on every side; a turned board
    # carries them round with it (files then run down the sides).
    beyond_t = (MARGIN / 2 + g.half_h) / g.dy
    beyond_c = (MARGIN / 2 + g.half_w) / g.dx
    files_small = ' font-size="11"' if g.quarter % 2 else ""
    ranks_small = "" if g.quarter % 2 else ' font-size="11"'
    for f, letter in enumerate(board.files):
        for t in (-beyond_t, g.rows - 1 + beyond_t):
            x, y = g.point(f, t)
            out.append(f'<text x="{_fmt(x)}" y="{_fmt(y)}"{files_small}>{letter}</text>')
    for rank in board.ranks:
        for c in (-beyond_c, g.cols - 1 + beyond_c):
            x, y = g.point(c, g.top_rank - rank)
            out.append(f'<text x="{_fmt(x)}" y="{_fmt(y)}"{ranks_small}>{rank}</text>')
    out.append("</g>")
    return out


def _pieces(pos: Position, g: Geometry) -> list[str]:
    v = pos.variant
    out = ['<g class="pieces">']
    r = g.piece_r
    for cell in v.cells:
        piece = pos.piece_at(cell)
        if piece is None:
            continue
        seat, kind_name = piece
        kind = KNIGHT if kind_name in ("knight", KNIGHT) else 0
        kind_name = "knight" if kind == KNIGHT else "man"
        seat_name = v.seats[seat].name
        fill, stroke, ink = SEAT_STYLE[seat_name]
        x, y = g.centre(cell)
        parts = [f'<g class="piece {seat_name} {kind_name}" data-cell="{v.cell_name(cell)}">',
                 f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r)}" fill="{fill}" '
                 f'stroke="{stroke}" stroke-width="2"/>']
        if kind == KNIGHT:
            parts.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="{_fmt(r * 0.72)}" '
                         f'fill="none" stroke="{ink}" stroke-width="1.5"/>')
            parts.append(f'<text x="{_fmt(x)}" y="{_fmt(y + 0.5)}" text-anchor="middle" '
                         f'dominant-baseline="middle" font-size="{_fmt(r * 0.95)}" '
                         f'font-weight="bold" fill="{ink}">K</text>')
        parts.append("</g>")
        out.append("".join(parts))
    out.append("</g>")
    return out


def _last_move_marks(pos: Position, g: Geometry, move: Move) -> list[str]:
    out = ['<g class="last-move">']
    for cell in (move.start, move.end):
        x, y = g.centre(cell)
        out.append(f'<circle class="route-end" cx="{_fmt(x)}" cy="{_fmt(y)}" '
                   f'r="{_fmt(g.piece_r + 4)}" fill="none" stroke="{ARROW}" stroke-width="3" '
                   'stroke-dasharray="4 3"/>')
    d = g.piece_r * 0.7
    for cell in move.captures:
        x, y = g.centre(cell)
        name = pos.variant.cell_name(cell)
        out.append(
            f'<g class="captured" data-cell="{name}" stroke="{CAPTURE}" stroke-width="4" '
            'stroke-linecap="round">'
            f'<line x1="{_fmt(x - d)}" y1="{_fmt(y - d)}" x2="{_fmt(x + d)}" y2="{_fmt(y + d)}"/>'
            f'<line x1="{_fmt(x - d)}" y1="{_fmt(y + d)}" x2="{_fmt(x + d)}" y2="{_fmt(y - d)}"/>'
            "</g>"
        )
    out.append("</g>")
    return out


def _arrow(g: Geometry, move: Move) -> list[str]:
    points = [g.centre(c) for c in move.route]
    if len(points) < 2:
        return []
    # Stop the last leg short of the centre so the head does not hide the piece's mark.
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1)
    cut = min(g.piece_r, length / 2)
    points[-1] = (x2 - (x2 - x1) / length * cut, y2 - (y2 - y1) / length * cut)
    pts = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)
    return [f'<polyline class="arrow" points="{pts}" fill="none" stroke="{ARROW}" '
            'stroke-width="5" stroke-linejoin="round" stroke-linecap="round" opacity="0.85" '
            'marker-end="url(#arrowhead)"/>']


# -------------------------------------------------------------------- games
def game_frames(start: Position, moves: Sequence[Move]) -> list[tuple[Position, Move | None]]:
    """The position before the first move and after each move, with the move just made."""
    pos = start.copy()
    frames = [(pos.copy(), None)]
    for move in moves:
        pos.push(move)
        frames.append((pos.copy(), move))
    return frames


def game_svgs(start: Position, moves: Sequence[Move], view: int | None = None) -> list[str]:
    """One SVG per ply: index 0 is the start, index k the position after move k."""
    v = start.variant
    out = []
    for ply, (pos, move) in enumerate(game_frames(start, moves)):
        title = "start" if move is None else f"{ply}. {format_move(v, move)}"
        out.append(board_svg(pos, move, title=title, view=view))
    return out
