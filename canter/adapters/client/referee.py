"""Parsing the answers to the referee queries (`board`, `pieces`, `turn`, `ranking`,
`result`, `legal`), with which a program that knows no rules learns the game from an engine.

Pure functions, no I/O; a malformed answer raises `LineError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from canter.adapters.client.parse import LineError

__all__ = ["BoardLayout", "Cell", "Piece", "parse_board", "parse_pieces", "parse_turn",
           "parse_ranking", "parse_result", "parse_legal"]


@dataclass(frozen=True)
class Cell:
    name: str  # "F7"
    file: int  # 0 for the leftmost file
    rank: int  # the number in the name


@dataclass(frozen=True)
class BoardLayout:
    """What a GUI needs to draw a variant: its cells (`shape` "square": centre at file, rank;
    "hex": flat-topped hexagons, neighbours on a file two ranks apart), its seats in turn
    order, and each seat's own castle."""

    variant: str
    shape: str
    seats: tuple[str, ...]
    castles: dict[str, tuple[str, ...]]
    cells: tuple[Cell, ...]
    # Team games: the partnerships, each a tuple of seats; () when every seat plays alone.
    teams: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class Piece:
    seat: str
    kind: str  # "man" or "knight"


def _words(line: str, keyword: str) -> list[str]:
    words = line.split()
    if not words or words[0] != keyword:
        raise LineError(f"expected '{keyword} ...'")
    return words[1:]


def parse_board(line: str) -> BoardLayout:
    """`board camelot square seats white black castles white:F1,G1 ... cells F1:5:1 ...`;
    a team game adds `teams red,blue green,yellow` after the seats."""
    words = _words(line, "board")
    if len(words) < 3 or words[2] != "seats":
        raise LineError("expected 'board <variant> <shape> seats ...'")
    variant, shape = words[0], words[1]
    try:
        at_castles = words.index("castles")
        at_cells = words.index("cells")
    except ValueError:
        raise LineError("a board line needs 'castles' and 'cells'") from None
    seats = tuple(words[3:at_castles])
    teams: tuple[tuple[str, ...], ...] = ()
    if "teams" in seats:
        at_teams = seats.index("teams")
        teams = tuple(tuple(word.split(",")) for word in seats[at_teams + 1:])
        seats = seats[:at_teams]
        if sorted(s for team in teams for s in team) != sorted(seats):
            raise LineError("the teams must hold every seat once")
    castles: dict[str, tuple[str, ...]] = {}
    for word in words[at_castles + 1:at_cells]:
        seat, _, cells = word.partition(":")
        if seat not in seats or not cells:
            raise LineError(f"bad castle '{word}'")
        castles[seat] = tuple(cells.split(","))
    cells_out = []
    for word in words[at_cells + 1:]:
        parts = word.split(":")
        if len(parts) != 3:
            raise LineError(f"bad cell '{word}' (expected NAME:FILE:RANK)")
        try:
            cells_out.append(Cell(parts[0], int(parts[1]), int(parts[2])))
        except ValueError:
            raise LineError(f"bad cell '{word}' (expected NAME:FILE:RANK)") from None
    if not seats or not cells_out:
        raise LineError("a board needs seats and cells")
    return BoardLayout(variant, shape, seats, castles, tuple(cells_out), teams)


def parse_pieces(line: str) -> dict[str, Piece]:
    """`pieces F7:white:knight ...` -> {"F7": Piece("white", "knight"), ...}"""
    pieces = {}
    for word in _words(line, "pieces"):
        parts = word.split(":")
        if len(parts) != 3:
            raise LineError(f"bad piece '{word}' (expected CELL:SEAT:KIND)")
        pieces[parts[0]] = Piece(parts[1], parts[2])
    return pieces


def parse_turn(line: str) -> str | None:
    """`turn white` -> "white"; `turn none` (the game is decided) -> None."""
    words = _words(line, "turn")
    if len(words) != 1:
        raise LineError("expected 'turn <seat>' or 'turn none'")
    return None if words[0] == "none" else words[0]


def parse_ranking(line: str) -> list[list[str]] | None:
    """`ranking red blue,green` -> [["red"], ["blue", "green"]]; `ranking none` -> None."""
    words = _words(line, "ranking")
    if words == ["none"]:
        return None
    if not words:
        raise LineError("expected 'ranking none' or the seats best first")
    return [word.split(",") for word in words]


def parse_result(line: str) -> tuple[str | None, bool]:
    """`result none` -> (None, False); `result none claimable` -> (None, True);
    `result white wins: ...` -> ("white wins: ...", False)."""
    words = _words(line, "result")
    if not words:
        raise LineError("'result' without an answer")
    if words[0] == "none":
        return None, words[1:] == ["claimable"]
    return line.split(None, 1)[1].strip(), False


def parse_legal(line: str) -> list[str]:
    """`legal C6-B5 C6-B6` -> ["C6-B5", "C6-B6"]; `legal` -> []."""
    return _words(line, "legal")
