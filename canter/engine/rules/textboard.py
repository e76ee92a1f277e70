"""The board as text: the real shape, coordinates, pieces, castles, the last move.

Used by the protocol's `d`, by `canter show` and by the terminal game. Pure: it returns a
string and never prints.

Every file takes three columns. A cell is drawn as `<left><mark><right>`: the mark is the
piece letter of the position string (the seat's letter, lower case for a Man, upper case for
a Knight) or `.` for an empty cell; brackets `[ ]` round the mark make a castle cell. Cells
that do not exist are blank, so Camelot's cut corners show. Tri-Camelot's cells exist only
where file + rank is even, so drawing one text row per rank staggers the rows into the
hexagonal grid: a cell's vertical neighbours are two rows up and down in the same column,
its diagonal neighbours one row and one column away.

The last move, when given: its start (if now empty) is `*`, its captured cells are `x`,
and its end cell is in parentheses (castle brackets win: a castle stays recognisable).
"""

from __future__ import annotations

from canter.engine.rules.board import cells_of
from canter.engine.rules.move import Move
from canter.engine.rules.position import Position

# ANSI colours, one per seat letter's seat name; only used with color=True.
SEAT_COLOURS = {
    "white": "1;97",
    "black": "1;91",
    "blue": "1;94",
    "red": "1;91",
    "green": "1;92",
    "yellow": "1;93",
}
_DIM = "2"
_CAPTURED = "1;35"  # magenta: yellow is a seat colour
_LAST = "7"  # reverse video for the moved piece


def _paint(text: str, code: str | None, color: bool) -> str:
    if not color or not code:
        return text
    return f"\x1b[{code}m{text}\x1b[0m"


def cell_mark(pos: Position, cell: int) -> str:
    """The one-letter mark of a cell: piece letter or '.'."""
    code = pos.cells[cell]
    if code < 0:
        return "."
    letter = pos.variant.seats[code >> 1].letter
    return letter.upper() if code & 1 else letter


def render(pos: Position, color: bool = False, last_move: Move | None = None) -> str:
    """The board of `pos` as text (no trailing newline), followed by a key and status."""
    v = pos.variant
    board = v.board
    nfiles = len(board.files)
    ranks = sorted(board.ranks, reverse=True)
    label_width = max(len(str(r)) for r in ranks)
    captured = set(last_move.captures) if last_move is not None else set()
    start = last_move.start if last_move is not None else -1
    end = last_move.end if last_move is not None else -1

    file_row = " " * (label_width + 1) + "".join(f" {f} " for f in board.files)
    lines = [_paint(file_row.rstrip(), _DIM, color)]
    for rank in ranks:
        slots = ["   "] * nfiles
        for cell in board.rank_cells(rank):
            f, _ = board.coords[cell]
            slots[f] = _cell_text(pos, cell, color, captured, start, end)
        label = str(rank).rjust(label_width)
        lines.append(
            _paint(label, _DIM, color) + " " + "".join(slots) + " " + _paint(str(rank), _DIM, color)
        )
    lines.append(lines[0])
    lines.extend(_key_lines(pos, last_move))
    return "\n".join(lines)


def _cell_text(
    pos: Position, cell: int, color: bool, captured: set[int], start: int, end: int
) -> str:
    v = pos.variant
    mark = cell_mark(pos, cell)
    code = pos.cells[cell]
    mark_colour = SEAT_COLOURS.get(v.seats[code >> 1].name) if code >= 0 else None
    if cell in captured and code < 0:
        mark, mark_colour = "x", _CAPTURED
    elif cell == start and code < 0:
        mark, mark_colour = "*", _CAPTURED
    if cell == end and color and code >= 0:
        mark_colour = f"{mark_colour};{_LAST}"
    mark = _paint(mark, mark_colour, color)
    owner = v.castle_owner.get(cell)
    if owner is not None:
        bracket = SEAT_COLOURS.get(v.seats[owner].name)
        return _paint("[", bracket, color) + mark + _paint("]", bracket, color)
    if cell == end:
        return f"({mark})"
    return f" {mark} "


def _key_lines(pos: Position, last_move: Move | None) -> list[str]:
    from canter.engine.rules.notation import format_move

    v = pos.variant
    seats = "  ".join(
        f"{s.name} {s.letter}/{s.letter.upper()}" for s in v.seats
    )
    castles = "  ".join(
        f"{s.name} " + "+".join(sorted((v.cell_name(c) for c in v.own_castle[i]),
                                       key=lambda n: (len(n), n)))
        for i, s in enumerate(v.seats)
    )
    lines = [f"pieces: {seats} (man/knight)", f"castles [ ]: {castles}"]
    if v.teams:
        teams = " against ".join(dict.fromkeys(v.team_name(s) for s in range(v.nseats)))
        targets = "  ".join(
            f"{s.name} " + "+".join(sorted(v.cell_name(c) for c in v.target_castle[i]))
            for i, s in enumerate(v.seats))
        lines.append(f"teams: {teams}; targets: {targets}")
    status = []
    if last_move is not None:
        status.append(f"last move: {format_move(v, last_move)}")
    outcome = pos.outcome()
    if outcome is not None:
        status.append(outcome.text())
    else:
        status.append(f"{v.seats[pos.turn].name} to move")
    duties = [v.cell_name(c) for bits in pos.duty for c in cells_of(bits)]
    if duties:
        status.append("must leave the castle: " + ", ".join(duties))
    if pos.eliminated:
        status.append("eliminated: " + _eliminated_text(pos))
    if v.castle_move_limit:
        used = ", ".join(
            f"{s.name} {pos.castle_moves[i]}/{v.castle_move_limit}" for i, s in enumerate(v.seats)
        )
        status.append(f"castle moves used: {used}")
    lines.append("; ".join(status))
    return lines


def _eliminated_text(pos: Position) -> str:
    """The seats out of the game in the order they went out; the last ones one move took
    together are joined by "and", as they share a rank ("red, then green and blue")."""
    names = [pos.variant.seats[s].name for s in pos.eliminated]
    together = min(pos.out_together, len(names))
    if together > 1:
        names[-together:] = [" and ".join(names[-together:])]
    return ", then ".join(names)
