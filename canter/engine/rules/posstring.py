"""The one-line position string (docs/position-format.md).

    <variant> <placement> <turn> <castle-moves> <duties> <eliminated> <quiet> <ply>

Placement lists ranks from the highest down, separated by '/'; within a rank the cells that
exist, by file; a piece letter per occupied cell (the seat's letter, lower case for a Man,
upper case for a Knight) and a number for a run of empty cells.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from canter.engine.rules.board import cells_of
from canter.engine.rules.text import shorten
from canter.engine.rules.variant import KNIGHT, MAN, Variant, get_variant

if TYPE_CHECKING:
    # Position depends on this module (from_string, to_string), not the other way round.
    from canter.engine.rules.position import Position


class PositionError(ValueError):
    """A malformed position string; `field` names the part that is wrong."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"bad position string: {field}: {reason}")
        self.field = field
        self.reason = reason


FIELDS = ("variant", "placement", "turn", "castle-moves", "duties", "eliminated", "quiet", "ply")


def format_position(pos: Position) -> str:
    v = pos.variant
    board = v.board
    rows = []
    for rank in reversed(board.ranks):
        row, run = [], 0
        for cell in board.rank_cells(rank):
            code = pos.cells[cell]
            if code < 0:
                run += 1
                continue
            if run:
                row.append(str(run))
                run = 0
            letter = v.seats[code >> 1].letter
            row.append(letter.upper() if code & 1 else letter)
        if run:
            row.append(str(run))
        rows.append("".join(row))
    duties = ",".join(v.cell_name(c) for bits in pos.duty for c in cells_of(bits)) or "-"
    together = pos.out_together
    out = list(pos.eliminated)
    if v.teams:
        # A team game ranks by team and its key ignores the order: one string, the seats
        # that went out apart in seat order (then any taken together by the last move).
        last = len(out) - together if together > 1 else len(out)
        out = sorted(out[:last]) + out[last:]
    letters = [v.seats[s].letter for s in out]
    if together > 1:
        # Seats one move eliminated share a rank: '+' says so (the last group only, since
        # such a move ends the game).
        letters[-together:] = ["+".join(letters[-together:])]
    eliminated = ",".join(letters) or "-"
    return " ".join([
        v.name, "/".join(rows), v.seats[pos.turn].letter,
        ",".join(str(n) for n in pos.castle_moves), duties, eliminated, str(pos.quiet),
        str(pos.ply),
    ])


MAX_DIGITS = 12  # of a count in a position string: more is no game (and int() refuses 4,300)


def _whole(text: str) -> bool:
    """A whole number in its one spelling (no sign, no leading zero)."""
    return text.isascii() and text.isdecimal() and (text == "0" or not text.startswith("0"))


def _too_long(field: str, text: str) -> None:
    if len(text) > MAX_DIGITS:
        raise PositionError(field, f"'{shorten(text)}' is too large (at most {MAX_DIGITS} "
                            "digits)")


def parse_position(text: str, new_position: Callable[[Variant], Position]) -> Position:
    """The position a string describes, built on `new_position(variant)` (an empty board)."""
    if not isinstance(text, str):
        raise PositionError("variant", f"a position string is text, not "
                            f"{type(text).__name__}")
    parts = text.split()
    if not parts:
        raise PositionError("variant", "the string is empty")
    try:
        variant = get_variant(parts[0])
    except KeyError as exc:
        raise PositionError("variant", exc.args[0]) from None
    if len(parts) != len(FIELDS):
        raise PositionError(
            "fields", f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(parts)}"
        )
    _, placement, turn, castle_moves, duties, eliminated, quiet, ply = parts
    pos = new_position(variant)
    # The game as the position's rules play it (side_castles may open castles).
    variant = pos.variant
    board = variant.board
    letters = {}
    for i, seat in enumerate(variant.seats):
        letters[seat.letter] = (i, MAN)
        letters[seat.letter.upper()] = (i, KNIGHT)
    ranks = list(reversed(board.ranks))
    rows = placement.split("/")
    if len(rows) != len(ranks):
        raise PositionError("placement", f"{variant.name} has {len(ranks)} ranks separated by "
                            f"'/', found {len(rows)}")
    for rank, row in zip(ranks, rows, strict=True):
        cells = board.rank_cells(rank)
        i = 0
        for token in re.findall(r"[0-9]+|[^0-9]", row):
            if token.isascii() and token.isdecimal():
                if token.startswith("0"):
                    # One spelling per position: no zero runs, no leading zeros.
                    raise PositionError("placement", f"rank {rank}: a run of empty cells "
                                        f"written '{shorten(token)}'")
                if len(token) > len(str(len(cells))):
                    raise PositionError("placement", f"rank {rank}: a run of "
                                        f"'{shorten(token)}' empty cells is longer than the "
                                        f"rank's {len(cells)} cells")
                i += int(token)
                continue
            if token not in letters:
                raise PositionError("placement", f"rank {rank}: unknown piece letter '{token}'")
            if i < len(cells):  # past the rank's end: counted for the error below
                seat, kind = letters[token]
                pos.put(cells[i], seat, kind)
            i += 1
        if i != len(cells):
            raise PositionError("placement", f"rank {rank} has {len(cells)} cells, the string "
                                f"describes {i}")
    for seat in range(variant.nseats):
        for cell in cells_of(pos.occ[seat] & variant.forbidden_bits[seat]):
            raise PositionError("placement", f"{variant.seats[seat].name} piece on "
                                f"{variant.cell_name(cell)}, a castle it may never enter")
    try:
        pos.turn = variant.seat_index(turn)
    except KeyError:
        known = ", ".join(s.letter for s in variant.seats)
        raise PositionError("turn", f"'{shorten(turn)}' is not a seat letter ({known})") from None
    counts = castle_moves.split(",")
    if len(counts) != variant.nseats or not all(_whole(c) for c in counts):
        raise PositionError("castle-moves", f"expected {variant.nseats} whole numbers "
                            f"separated by ',', got '{shorten(castle_moves)}'")
    for seat, c in enumerate(counts):
        # (The length first: int() refuses 4,300 digits.)
        if len(c) > len(str(variant.castle_move_limit)) or int(c) > variant.castle_move_limit:
            raise PositionError("castle-moves", f"{variant.seats[seat].name} has used "
                                f"{shorten(c)} Castle Moves; the limit is "
                                f"{variant.castle_move_limit}")
        pos.castle_moves[seat] = int(c)
    if duties != "-":
        for name in duties.split(","):
            try:
                cell = board.cell(name)
            except KeyError:
                raise PositionError("duties", f"unknown cell '{shorten(name)}'") from None
            seat = variant.castle_owner.get(cell)
            if seat is None:
                raise PositionError("duties", f"{name} is not a castle cell")
            piece = pos.piece_at(cell)
            if piece is not None and (variant.own_bits[piece[0]] >> cell) & 1:
                seat = piece[0]  # a team game's side castle entered as one's own
            if piece is None or piece[0] != seat:
                raise PositionError("duties", f"no {variant.seats[seat].name} piece on {name} "
                                    "to leave its castle")
            if (pos.duty[seat] >> cell) & 1:
                raise PositionError("duties", f"{name} is named twice")
            # (Two of a seat's pieces may both owe an exit: one that could not move
            # when the other jumped in.)
            pos.duty[seat] |= 1 << cell
    out: tuple[int, ...] = ()
    joined = 1
    if eliminated != "-":
        groups = eliminated.split(",")
        for i, text in enumerate(groups):
            letters = text.split("+")
            if len(letters) > 1 and i < len(groups) - 1:
                raise PositionError("eliminated", "only the last seats may be joined by '+' "
                                    "(seats one move eliminates end the game)")
            members: list[int] = []
            for letter in letters:
                try:
                    seat = variant.seat_index(letter)
                except KeyError:
                    raise PositionError("eliminated",
                                        f"'{shorten(letter)}' is not a seat letter") from None
                if seat in out or seat in members:
                    raise PositionError("eliminated",
                                        f"seat '{shorten(letter)}' listed twice")
                if pos.occ[seat]:
                    raise PositionError("eliminated", f"{variant.seats[seat].name} still "
                                        "has pieces")
                members.append(seat)
            # Seats out together in seat order: one string per position.
            out += tuple(sorted(members))
            joined = len(members)
        pos.out_together = joined
    for seat in range(variant.nseats):
        if not pos.occ[seat] and seat not in out:
            raise PositionError("eliminated", f"{variant.seats[seat].name} has no pieces but "
                                "is not listed as eliminated")
    if pos.turn in out:
        raise PositionError("turn", "the seat to move is eliminated")
    pos.eliminated = out
    for name, value in (("quiet", quiet), ("ply", ply)):
        if not _whole(value):
            raise PositionError(name, f"expected a whole number, got '{shorten(value)}'")
        _too_long(name, value)
    if int(quiet) > int(ply):
        raise PositionError("quiet", f"{quiet} quiet plies cannot exceed the {ply} "
                            f"{'ply' if ply == '1' else 'plies'} played")
    pos.quiet = int(quiet)
    pos.ply = int(ply)
    pos.reset_derived()
    if joined > 1 and pos.outcome() is None:
        raise PositionError("eliminated", "seats joined by '+' went out to one move, which "
                            "ends the game, but this game goes on")
    return pos
