"""Tri-Camelot move generation against an independent reference (RULES.md §2, §4).

The reference below shares no code with canter.engine.rules.movegen: it works on (file, rank)
coordinates, enumerates every route leg by leg as the rule text reads, and keeps the set of
(start, end, captured cells) of the legal ones. The engine must produce exactly that set,
and its fast counter (perft's last ply) the same number, on many random positions.
"""

from __future__ import annotations

import random

import pytest

from canter.engine.rules import movegen
from canter.engine.rules.position import Position
from canter.engine.rules.variant import KNIGHT, MAN, get_variant

TRI = get_variant("tri-camelot")
DIRS = ((0, 2), (0, -2), (1, 1), (-1, -1), (1, -1), (-1, 1))
CASTLE = {0: "F1", 1: "A16", 2: "K16"}


def _cells() -> set[str]:
    by_file = {
        "A": (12, 14, 16), "B": range(9, 18, 2), "C": range(6, 19, 2), "D": range(3, 18, 2),
        "E": range(2, 19, 2), "F": range(1, 18, 2), "G": range(2, 19, 2),
        "H": range(3, 18, 2), "I": range(6, 19, 2), "J": range(9, 18, 2),
        "K": (12, 14, 16),
    }
    return {f"{f}{r}" for f, rs in by_file.items() for r in rs}


CELLS = _cells()


def _add(name: str, d: tuple[int, int], k: int = 1) -> str | None:
    f, r = ord(name[0]) - 65 + k * d[0], int(name[1:]) + k * d[1]
    if f < 0:
        return None
    out = f"{chr(65 + f)}{r}"
    return out if out in CELLS else None


def reference_moves(pieces: dict[str, tuple[int, int]], seat: int,
                    duty: str | None = None) -> set[tuple[str, str, frozenset[str]]]:
    """Legal moves of `seat`: pieces maps cell name -> (seat, kind)."""
    own_castle = CASTLE[seat]
    target = CASTLE[(seat + 1) % 3]
    forbidden = CASTLE[(seat - 1) % 3]

    def moves_of(start: str) -> tuple[set, set]:
        """(capturing moves, non-capturing moves) of the piece on `start`, rules of the
        route only (no duty to capture)."""
        knight = pieces[start][1] == KNIGHT
        caps: set = set()
        quiet: set = set()

        def free(cell: str, captured: frozenset) -> bool:
            return cell == start or cell in captured or cell not in pieces

        def jumps_from(cur: str, captured: frozenset) -> list[tuple[str, str]]:
            out = []
            for d in DIRS:
                over, land = _add(cur, d), _add(cur, d, 2)
                if over is None or land is None or land == forbidden:
                    continue
                if over in pieces and pieces[over][0] != seat and over not in captured:
                    if free(land, captured):
                        out.append((over, land))
            return out

        def jump_chain(cur: str, captured: frozenset) -> None:
            nxt = [] if cur == target else jumps_from(cur, captured)
            if not nxt:
                if captured:
                    caps.add((start, cur, captured))
                return
            for over, land in nxt:
                jump_chain(land, captured | {over})

        # Plain moves.
        for d in DIRS:
            n = _add(start, d)
            if n and n not in pieces and n not in (own_castle, forbidden):
                quiet.add((start, n, frozenset()))
        jump_chain(start, frozenset())
        # Canter routes, depth first over simple paths; for a Knight, remember whether some
        # route to each end never landed where a jump was offered.
        clean: dict[str, bool] = {}

        def canter(cur: str, visited: frozenset, dirty: bool) -> None:
            for d in DIRS:
                over, land = _add(cur, d), _add(cur, d, 2)
                if over is None or land is None or land in visited:
                    continue
                if over == start or over not in pieces or pieces[over][0] != seat:
                    continue
                if not free(land, frozenset()) or land in (own_castle, forbidden):
                    continue
                offers = land != target and bool(jumps_from(land, frozenset()))
                if land != start:
                    clean[land] = clean.get(land, False) or not (dirty or offers)
                if knight and offers:
                    jump_chain(land, frozenset())  # a Knight's Charge
                if land != target:
                    canter(land, visited | {land}, dirty or offers)

        canter(start, frozenset({start}), False)
        for end, ok in clean.items():
            if ok or not knight:
                quiet.add((start, end, frozenset()))
        return caps, quiet

    mine = [c for c, (s, _) in pieces.items() if s == seat and c != target]
    if duty is not None:
        caps, quiet = moves_of(duty)
        if caps or quiet:
            can_jump = any(
                _add(duty, d) in pieces and pieces[_add(duty, d)][0] != seat
                and _add(duty, d, 2) and _add(duty, d, 2) not in pieces
                and _add(duty, d, 2) != forbidden
                for d in DIRS
            )
            return caps if can_jump else caps | quiet
    must = False
    for p in mine:
        for d in DIRS:
            over, land = _add(p, d), _add(p, d, 2)
            if over and land and over in pieces and pieces[over][0] != seat \
                    and land not in pieces and land != forbidden:
                must = True
    out: set = set()
    for p in mine:
        caps, quiet = moves_of(p)
        out |= caps
        if not must:
            out |= quiet
    return out


def engine_moves(pos: Position) -> set[tuple[str, str, frozenset[str]]]:
    name = TRI.cell_name
    return {(name(m.start), name(m.end), frozenset(name(c) for c in m.captures))
            for m in movegen.generate(pos)}


def random_setup(rng: random.Random) -> tuple[dict[str, tuple[int, int]], int, str | None]:
    """A random crowded position: a few pieces per seat, never in a castle a seat may not
    hold; sometimes a piece of the seat to move in its own castle with an exit duty."""
    free = sorted(CELLS)
    rng.shuffle(free)
    pieces: dict[str, tuple[int, int]] = {}
    seat = rng.randrange(3)
    duty = None
    if rng.random() < 0.3:
        duty = CASTLE[seat]
        pieces[duty] = (seat, rng.choice((MAN, KNIGHT)))
    counts = [rng.randint(1, 9) for _ in range(3)]
    for s in range(3):
        placed = 0
        for cell in free:
            if placed == counts[s]:
                break
            if cell in pieces or cell in (CASTLE[(s + 1) % 3], CASTLE[(s - 1) % 3]):
                continue
            if cell == CASTLE[s] and rng.random() < 0.7:
                continue
            pieces[cell] = (s, rng.choice((MAN, KNIGHT)))
            placed += 1
    # Pieces cluster near a random centre to make leaps, chains and charges common.
    return pieces, seat, duty


def clustered_setup(rng: random.Random) -> tuple[dict[str, tuple[int, int]], int, str | None]:
    pieces, seat, duty = random_setup(rng)
    centre = rng.choice(sorted(CELLS))
    near = sorted(CELLS, key=lambda c: (abs(ord(c[0]) - ord(centre[0]))
                                        + abs(int(c[1:]) - int(centre[1:])) / 2,
                                        rng.random()))
    moved: dict[str, tuple[int, int]] = {}
    if duty:
        moved[duty] = pieces.pop(duty)
    slots = [c for c in near if c not in moved]
    for piece, cell in zip(pieces.values(), slots, strict=False):
        s = piece[0]
        if cell in (CASTLE[(s + 1) % 3], CASTLE[(s - 1) % 3]):
            continue
        if cell == CASTLE[s]:
            continue
        moved[cell] = piece
    if not any(s == seat for s, _ in moved.values()):
        return random_setup(rng)
    return moved, seat, duty


def build(pieces: dict[str, tuple[int, int]], seat: int, duty: str | None) -> Position:
    pos = Position(TRI)
    for cell, (s, kind) in pieces.items():
        pos.put(TRI.cell(cell), s, kind)
    pos.turn = seat
    if duty:
        pos.duty[seat] = 1 << TRI.cell(duty)
    # No reset_derived: automatic passes would move the turn on; generate() reads the
    # position as set up.
    return pos


@pytest.mark.parametrize("seed", range(6))
def test_engine_matches_reference_on_random_positions(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        setup = clustered_setup(rng) if rng.random() < 0.7 else random_setup(rng)
        pieces, seat, duty = setup
        pos = build(pieces, seat, duty)
        want = reference_moves(pieces, seat, duty)
        got = engine_moves(pos)
        assert got == want, (pieces, seat, duty, got ^ want)
        assert movegen.count_moves(pos) == len(want), (pieces, seat, duty)


def test_engine_matches_reference_along_random_games() -> None:
    rng = random.Random(7)
    for _ in range(6):
        pos = Position.start(TRI)
        while pos.outcome() is None:
            pieces = {TRI.cell_name(c): (code >> 1, code & 1)
                      for c in TRI.cells if (code := pos.cells[c]) >= 0}
            duty = movegen.duty_pieces(pos, pos.turn)
            duty_name = TRI.cell_name(duty.bit_length() - 1) if duty else None
            assert engine_moves(pos) == reference_moves(pieces, pos.turn, duty_name)
            assert pos.count_legal_moves() == len(pos.legal_moves())
            pos.push(rng.choice(pos.legal_moves()))
