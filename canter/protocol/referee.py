"""Answers to the referee queries that describe the game to a GUI that knows no rules.

`board`, `pieces`, `turn` and `ranking` report what the rules library holds (the board's
cells and castles, the pieces, whose turn it is, how the seats finished) as one line each,
so a GUI can draw and run any variant the engine knows without knowing the variant.
Both dialects answer them the same way; `legal` is here too because its move form needs
the rules library's notation.
"""

from __future__ import annotations

import re

from canter.engine import AmbiguousMoveError, IllegalMoveError, NotationError, format_move
from canter.engine import parse_move as parse_move_text
from canter.protocol.lines import echo


class RefereeError(Exception):
    """A query the engine refuses; the message is meant for the client as is."""


def board_line(variant) -> str:
    """`board <variant> <shape> seats ... [teams <seat>,<seat> ...] castles <seat>:<cell>,...
    cells <cell>:<file>:<rank> ...`

    The shape says how cells are drawn: `square` (centre at file, rank) or `hex` (flat-topped
    hexagons; the ranks of neighbours on a file differ by two). `teams` (team games only)
    lists the partnerships, each as its seats joined by commas."""
    board = variant.board
    shape = "hex" if len(board.directions) == 6 else "square"
    seats = [seat.name for seat in variant.seats]
    castles = []
    for seat, cells in zip(seats, variant.own_castle, strict=True):
        names = ",".join(variant.cell_name(c) for c in sorted(cells))
        castles.append(f"{seat}:{names}")
    cells = []
    for cell in variant.cells:
        file, rank = board.coords[cell]
        cells.append(f"{variant.cell_name(cell)}:{file}:{rank}")
    teams: list[str] = []
    if variant.is_team_game:
        teams = ["teams", *dict.fromkeys(
            ",".join(seats[p] for p in variant.partners[s]) for s in range(len(seats)))]
    return " ".join(["board", variant.name, shape, "seats", *seats, *teams, "castles",
                     *castles, "cells", *cells])


def pieces_line(pos) -> str:
    """`pieces <cell>:<seat>:<kind> ...` in cell order; just `pieces` on an empty board."""
    variant = pos.variant
    words = ["pieces"]
    for cell in variant.cells:
        piece = pos.piece_at(cell)
        if piece is not None:
            seat, kind = piece
            words.append(f"{variant.cell_name(cell)}:{variant.seats[seat].name}:{kind}")
    return " ".join(words)


def turn_line(pos) -> str:
    """`turn <seat>`, or `turn none` once the game is decided."""
    if pos.outcome() is not None:
        return "turn none"
    return f"turn {pos.variant.seats[pos.turn].name}"


def ranking_line(pos) -> str:
    """`ranking none` while the game goes on; else the seats best first, seats sharing a
    rank joined by commas: `ranking red blue,green`."""
    outcome = pos.outcome()
    if outcome is None:
        return "ranking none"
    names = [seat.name for seat in pos.variant.seats]
    return " ".join(["ranking", *(",".join(names[s] for s in rank) for rank in outcome.ranking)])


_TWO_CELLS = re.compile(r"[A-Za-z][0-9]{1,2}[A-Za-z][0-9]{1,2}")


def legal_moves(pos, argument: str | None = None) -> list[str]:
    """The canonical spellings of the legal moves: all of them; those of the piece on a cell
    (`F7`); or those a move text may mean (`d6f8`, `D6-F8`: one, or several when the short
    form is ambiguous). A move text that names no legal move is refused with the reason."""
    variant = pos.variant
    moves = pos.legal_moves() if pos.outcome() is None else []
    if argument is None:
        return sorted(format_move(variant, m) for m in moves)
    try:
        cell = variant.cell(argument.upper())
    except (KeyError, ValueError):
        cell = None
    if cell is not None:
        return sorted(format_move(variant, m) for m in moves if m.start == cell)
    try:
        move = parse_move_text(pos, argument)
    except AmbiguousMoveError as exc:
        return sorted(exc.candidates)
    except IllegalMoveError as exc:
        raise RefereeError(f"legal: illegal: {exc.reason}") from None
    except NotationError as exc:
        # A word that reads as no move form (`Q99`, `é`) was meant as a cell; one that
        # reads as two cells (`d6z9`) or a route gets the notation's own reason.
        if ("-" not in argument and "x" not in argument.lower()
                and not _TWO_CELLS.fullmatch(argument)):
            raise RefereeError(
                f"no cell '{echo(argument)}' on the {variant.name} board") from None
        raise RefereeError(f"legal: '{echo(argument)}' is not a move of the "
                           f"{variant.name} board ({exc})") from None
    return [format_move(variant, move)]
