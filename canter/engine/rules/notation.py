"""Official move notation (RULES.md §3): formatting, and parsing with reasons.

`F5-F9-H11xF13xD11`: every landed cell, `-` before a non-capturing leg, `x` before a jump.
As input, also two cells without a separator (`d6f8`, as UCI GUIs send moves): the move from
the first to the second by any route, plain, canter or jump alike.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from canter.engine.rules import movegen
from canter.engine.rules.board import cells_of
from canter.engine.rules.move import Move
from canter.engine.rules.text import shorten

if TYPE_CHECKING:
    from canter.engine.rules.position import Position
    from canter.engine.rules.variant import Variant


class NotationError(ValueError):
    """The text is not a move string of this board (malformed, unknown cell)."""


class IllegalMoveError(ValueError):
    """A well-formed move that is not legal here; `reason` says why."""

    def __init__(self, text: str, reason: str) -> None:
        # A reason names the leg at fault, which for a move of one leg is the move itself:
        # the message then quotes it once.
        super().__init__(f"illegal move {reason}"
                         if reason.startswith(f"{text.replace(' ', '')}: ")
                         else f"illegal move {text}: {reason}")
        self.text = text
        self.reason = reason


class AmbiguousMoveError(ValueError):
    """A short form that matches several legal moves; `candidates` are their spellings."""

    def __init__(self, text: str, candidates: list[str]) -> None:
        super().__init__(f"ambiguous move {text}: could be {', '.join(candidates)}")
        self.text = text
        self.candidates = candidates


_TOKEN = re.compile(r"\s*([A-Za-z]\d{1,2})\s*([-xX])?", re.ASCII)
# Two cells and nothing between (`d6f8`, `h11f9`): a cell is a letter and one or two digits,
# so the second letter always marks where the second cell begins.
_BARE = re.compile(r"\s*([A-Za-z]\d{1,2})([A-Za-z]\d{1,2})\s*", re.ASCII)


def format_move(variant: Variant, move: Move) -> str:
    names = variant.board.names
    out = [names[move.route[0]]]
    for i, cell in enumerate(move.route[1:]):
        out.append("-" if i < move.canter_legs else "x")
        out.append(names[cell])
    return "".join(out)


def split_route(variant: Variant, text: str) -> tuple[list[int], list[str]]:
    """Cells and separators of a move string; NotationError if it is not one."""
    s = text.strip()
    if not s:
        raise NotationError("empty move")
    cells: list[int] = []
    seps: list[str] = []
    pos = 0
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if not m or m.end() == pos:
            raise NotationError(f"malformed move '{shorten(text)}': expected a cell such as "
                                f"F5 at '{shorten(s[pos:])}'")
        name = m.group(1).upper()
        try:
            cells.append(variant.board.cell(name))
        except KeyError:
            raise NotationError(f"unknown cell {name} in '{shorten(text)}' ({variant.name} has "
                                "no such cell)") from None
        pos = m.end()
        if m.group(2):
            seps.append(m.group(2).lower())
            if pos >= len(s):
                raise NotationError(f"malformed move '{shorten(text)}': it ends with "
                                    f"'{m.group(2)}'")
        elif pos < len(s):
            raise NotationError(f"malformed move '{shorten(text)}': cells must be joined by '-' "
                                "or 'x'")
    if len(cells) < 2:
        raise NotationError(f"malformed move '{shorten(text)}': a move names at least two "
                            "cells")
    return cells, seps


def _bare_cells(variant: Variant, text: str) -> list[int] | None:
    """The two cells of a move written without a separator (`d6f8`), or None if `text` is
    not of that shape."""
    m = _BARE.fullmatch(text)
    if m is None:
        return None
    cells = []
    for name in (m.group(1).upper(), m.group(2).upper()):
        try:
            cells.append(variant.board.cell(name))
        except KeyError:
            raise NotationError(f"unknown cell {name} in '{shorten(text.strip())}' "
                                f"({variant.name} has no such cell)") from None
    return cells


def parse_move(pos: Position, text: str) -> Move:
    """The legal move that `text` spells in `pos`: any full route of it, a short form
    START-END / STARTxEND, or STARTEND without a separator (either kind), that matches
    exactly one legal move."""
    if not isinstance(text, str):
        raise NotationError(f"a move is text, not {type(text).__name__}")
    v = pos.variant
    bare = _bare_cells(v, text)
    if bare is not None:
        return _parse_bare(pos, bare, shorten(text.strip().upper()))
    cells, seps = split_route(v, text)
    shown = shorten(text.strip().upper().replace("X", "x"))
    outcome = pos.outcome()
    if outcome is not None:
        raise IllegalMoveError(shown, f"the game is over ({outcome.text()})")
    legal = {m.key: m for m in pos.legal_moves()}
    route_error = None
    no_leg = False
    try:
        key = _walk_route(pos, cells, seps)
        if key in legal:
            return legal[key]
        route_error = _why_not(pos, key, cells, seps, legal)
    except IllegalMoveError as exc:
        route_error = exc.reason
        no_leg = isinstance(exc, _NoLeg)
    if len(cells) == 2:
        capture = seps[0] == "x"
        start, end = cells
        matches = [m for m in legal.values()
                   if m.start == start and m.end == end and m.is_capture == capture]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            raise AmbiguousMoveError(shown, sorted(format_move(v, m) for m in matches))
        if no_leg:
            # A short form may name the ends of a route of many legs: no one leg is
            # wrong, no such move exists.
            kind = "jump or Knight's Charge" if capture else "plain move or canter"
            route_error = _no_route(v, start, end, kind)
    raise IllegalMoveError(shown, route_error)


class _NoLeg(IllegalMoveError):
    """No single leg joins two cells of a route (neither a step nor a leap)."""


def _no_route(v: Variant, start: int, end: int, kind: str) -> str:
    names = v.board.names
    return f"no legal {kind} goes from {names[start]} to {names[end]}"


def _parse_bare(pos: Position, cells: list[int], shown: str) -> Move:
    """START and END with nothing between: every legal move from START to END, plain move,
    canter, jump or Knight's Charge, is a candidate; exactly one must match."""
    v = pos.variant
    outcome = pos.outcome()
    if outcome is not None:
        raise IllegalMoveError(shown, f"the game is over ({outcome.text()})")
    start, end = cells
    legal = pos.legal_moves()
    matches = [m for m in legal if m.start == start and m.end == end]
    if len(matches) == 1:
        return matches[0]
    if len(matches) > 1:
        raise AmbiguousMoveError(shown, sorted(format_move(v, m) for m in matches))
    # No legal move: explain as for the spelling the writer most likely meant, a jump when
    # an enemy piece lies between, else a plain move or canter.
    over = _between(v.board, start, end)
    occupied = [bits for seat, bits in enumerate(pos.occ) if seat != pos.turn]
    enemy = 0
    for bits in occupied:
        enemy |= bits
    sep = "x" if over is not None and (enemy >> over) & 1 else "-"
    seps = [sep]
    try:
        key = _walk_route(pos, cells, seps)
        reason = _why_not(pos, key, cells, seps, {m.key: m for m in legal})
    except _NoLeg:
        reason = _no_route(v, start, end, "move")
    except IllegalMoveError as exc:
        reason = exc.reason
    raise IllegalMoveError(shown, reason)


def _walk_route(pos: Position, cells: list[int], seps: list[str]) -> tuple[int, int, int]:
    """Follow a route leg by leg; the identity of the move it makes, or the reason it is not
    a possible route at all."""
    v = pos.variant
    board = v.board
    names = board.names
    shown = "".join(names[c] + s for c, s in zip(cells, seps + [""], strict=True))
    start = cells[0]
    piece = pos.piece_at(start)
    if piece is None:
        raise IllegalMoveError(shown, f"no piece on {names[start]}")
    seat, kind = piece
    if seat != pos.turn:
        raise IllegalMoveError(shown, f"the piece on {names[start]} is {v.seats[seat].name}'s; "
                               f"it is {v.seats[pos.turn].name}'s turn")
    if "x" in seps and "-" in seps[seps.index("x"):]:
        raise IllegalMoveError(shown, "a canter leg cannot follow a jump")
    if "x" in seps and "-" in seps and kind != "knight":
        raise IllegalMoveError(shown, "only a Knight may canter and then jump (a Knight's "
                               "Charge)")
    # Canters pass over friendly pieces (a partner's too, Ruling R13); jumps take the rest.
    own = movegen.friendly(pos, seat)
    allocc = 0
    for bits in pos.occ:
        allocc |= bits
    sb = 1 << start
    captured = 0
    target = v.target_bits[seat]
    cur = start
    for sep, nxt in zip(seps, cells[1:], strict=True):
        if cur != start and (target >> cur) & 1:
            raise IllegalMoveError(shown, "entering the opponent's castle ends the move")
        leg = f"{names[cur]}{sep}{names[nxt]}"
        free = (board.mask & ~allocc) | sb | captured  # the start is vacated at once
        if (v.forbidden_bits[seat] >> nxt) & 1:
            what = ("a side castle" if v.teams else
                    "the castle of the opponent on the right")
            raise IllegalMoveError(shown, f"{names[nxt]} is {what}, which may never be "
                                   "entered")
        if not (free >> nxt) & 1:
            raise IllegalMoveError(shown, f"{names[nxt]} is occupied")
        over = _between(board, cur, nxt)
        if sep == "-":
            if over is None and nxt in board.neighbours[cur] and len(seps) == 1:
                pass  # a plain move (or a Castle Move)
            elif over is None and nxt in board.neighbours[cur]:
                raise IllegalMoveError(shown, f"{leg} is a plain move, which is a whole move: "
                                       "no leg may come before or after it")
            elif over is None:
                raise _NoLeg(shown, f"{leg} is neither a step to a neighbour nor a "
                                       "leap over one cell")
            elif not (own & ~sb) >> over & 1:
                if (allocc & ~own & ~captured) >> over & 1:
                    raise IllegalMoveError(shown, f"{leg}: {names[over]} holds an enemy "
                                           f"piece; a jump is written with 'x' "
                                           f"({names[cur]}x{names[nxt]})")
                raise IllegalMoveError(shown, f"{leg}: a canter leaps over a piece of one's "
                                       f"own, and {names[over]} holds none")
            if (v.own_bits[seat] >> nxt) & 1:
                raise IllegalMoveError(shown, "the own castle cannot be entered by a plain "
                                       "move or a canter")
        else:
            if over is None:
                raise _NoLeg(shown, f"{leg} is not a leap over one cell")
            enemy = allocc & ~own & ~captured
            if not (enemy >> over) & 1:
                if v.teams and (own & ~pos.occ[seat]) >> over & 1:
                    raise IllegalMoveError(shown, f"{leg}: {names[over]} holds a partner's "
                                           "piece, which is never jumped")
                raise IllegalMoveError(shown, f"{leg}: there is no enemy piece on "
                                       f"{names[over]} to jump")
            captured |= 1 << over
        cur = nxt
    if cur == start and not captured:
        raise IllegalMoveError(shown, "a canter may not end on its starting cell")
    return start, cur, captured


def _between(board, a: int, b: int) -> int | None:
    for over, land in board.leaps[a]:
        if land == b:
            return over
    return None


def _why_not(pos: Position, key, cells, seps, legal) -> str:
    """Why a possible route is still not a legal move here."""
    v = pos.variant
    names = v.board.names
    start, end, captured = key
    seat = pos.turn
    target = v.target_bits[seat]
    duty = movegen.duty_pieces(pos, seat)
    # The pieces bound to leave that can (the duty binds only while one of them can).
    leaving = 0
    for m in legal.values():
        leaving |= duty & (1 << m.start)
    sv = movegen.SeatView(pos, seat)
    jumpers = [c for c in cells_of(duty)
               if movegen.can_jump(v.board, 1 << c, sv.enemy, sv.jump_ok)]
    capture_by = ("the move must be a capture by the piece on "
                  + " or ".join(names[c] for c in jumpers))
    if leaving and not (leaving >> start) & 1:
        if (duty >> start) & 1 and jumpers:  # bound to leave too, but by a capture
            return capture_by
        bound = " or ".join(names[c] for c in cells_of(leaving))
        piece = "the piece" if not leaving & (leaving - 1) else "a piece"
        return f"{piece} on {bound} must leave its castle this turn"
    if (target >> start) & 1:
        if not (target >> end) & 1 or captured:
            return "a piece in the opponent's castle can only make a Castle Move"
        if pos.castle_moves[seat] >= v.castle_move_limit:
            return f"all {v.castle_move_limit} Castle Moves have been used"
    if not captured:
        if (leaving >> start) & 1:
            if jumpers == [start]:
                return f"the piece leaving its castle on {names[start]} must capture"
            if jumpers:
                return capture_by
        if movegen.must_capture(pos):
            return "a capture is compulsory"
        if pos.piece_at(start)[1] == "knight" and len(cells) > 2 or (
            pos.piece_at(start)[1] == "knight" and _is_leap(v.board, start, end)
        ):
            return ("a Knight whose canter lands next to an enemy piece it can jump must "
                    "capture in that move")
        return "not a legal move here"
    # A capture that stopped early.
    free = sv.jump_ok | (1 << start) | captured
    if not (target >> end) & 1:
        for over, land in v.board.leaps[end]:
            if (sv.enemy & ~captured) >> over & 1 and (free >> land) & 1:
                return f"the jump must continue from {names[end]}"
    return "not a legal move here"


def _is_leap(board, a: int, b: int) -> bool:
    return _between(board, a, b) is not None
