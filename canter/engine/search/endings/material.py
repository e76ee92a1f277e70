"""A material class of a two-sided ending and the index of its positions (docs/tables.md).

A class names the two seats in play and their pieces: `camette-wKM-bK` is White's Knight and
Man against Black's Knight, `tri-camelot-bK-rM` Blue's Knight against Red's Man with Green
out of the game. A position of the class is its pieces' cells, the seat to move, and the
state the rules keep besides the cells: Castle Moves used and pending exit duties.

The index places the piece groups (a seat's Knights, then its Men, seat by seat) one after
another on the cells the earlier groups left free, each group as a combination of its
cells (the combinatorial number system), so no index is wasted on two pieces on one cell:

    base = placement * 2 + (0 if the first seat moves else 1)

Castle Moves and exit duties are rare (a seat has used Castle Moves only with a piece in the
target castle, which never leaves it; a duty only with a piece in its own castle), so the
states with any are numbered apart, after the base ones, by `extra`: a code that is 0 for
none.
"""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from dataclasses import dataclass
from itertools import combinations
from math import comb

from canter.engine.rules.board import cells_of
from canter.engine.rules.variant import KNIGHT, MAN, VARIANT_NAMES, Variant, get_variant


class MaterialError(ValueError):
    """A class name that names no class of two-sided endings."""


_SIDE = re.compile(r"^([a-z])(K*)(M*)$")


@dataclass(frozen=True)
class Material:
    """A class of endings: `seats` (the two seats in play, in turn order) and `pieces`,
    per seat, (Knights, Men)."""

    variant: Variant
    seats: tuple[int, int]
    pieces: tuple[tuple[int, int], tuple[int, int]]

    # ---- names --------------------------------------------------------------------
    @property
    def key(self) -> str:
        return f"{self.variant.name}-{self.side_text(0)}-{self.side_text(1)}"

    def side_text(self, i: int) -> str:
        knights, men = self.pieces[i]
        return self.variant.seats[self.seats[i]].letter + "K" * knights + "M" * men

    def __str__(self) -> str:
        return self.key

    @property
    def count(self) -> int:
        """Pieces on the board."""
        return sum(k + m for k, m in self.pieces)

    # ---- the index ------------------------------------------------------------------
    @property
    def groups(self) -> tuple[tuple[int, int, int], ...]:
        """(seat, kind, how many) of each non-empty group, in index order."""
        out = []
        for seat, (knights, men) in zip(self.seats, self.pieces, strict=True):
            if knights:
                out.append((seat, KNIGHT, knights))
            if men:
                out.append((seat, MAN, men))
        return tuple(out)

    @property
    def placements(self) -> int:
        free, total = len(self.variant.board.cells), 1
        for _, _, n in self.groups:
            total *= comb(free, n)
            free -= n
        return total

    @property
    def base_size(self) -> int:
        return self.placements * 2

    @property
    def castle_states(self) -> int:
        return (self.variant.castle_move_limit + 1) ** 2

    @property
    def duty_states(self) -> int:
        return (len(self.variant.own_castle[self.seats[0]]) + 1) * \
            (len(self.variant.own_castle[self.seats[1]]) + 1)

    @property
    def extra_states(self) -> int:
        return self.castle_states * self.duty_states

    def subclasses(self) -> list[Material]:
        """The classes one capture leads to (a seat left without pieces ends the game)."""
        out = []
        for i in range(2):
            knights, men = self.pieces[i]
            for take in ((knights - 1, men), (knights, men - 1)):
                if min(take) < 0 or sum(take) == 0:
                    continue
                pieces = list(self.pieces)
                pieces[i] = take
                out.append(Material(self.variant, self.seats, (pieces[0], pieces[1])))
        return out


def parse_material(text: str, variant: Variant | str | None = None) -> Material:
    """`camette-wKM-bK`, or `wKM-bK` with `variant` given. Seats are named by their
    letters; a seat's Knights come before its Men."""
    text = text.strip()
    if isinstance(variant, str):
        variant = get_variant(variant)
    parts = text.split("-")
    if len(parts) >= 3:
        name = "-".join(parts[:-2])
        try:
            variant = get_variant(name)
        except KeyError as exc:
            for known in VARIANT_NAMES:
                if text.startswith(known + "-"):  # a known game with three sides or more
                    a, b = (seat.letter for seat in get_variant(known).seats[:2])
                    raise MaterialError(f"'{text}': a class names two sides after the game, "
                                        f"like {known}-{a}KM-{b}K") from None
            raise MaterialError(str(exc).strip("'\"")) from None
        parts = parts[-2:]
    if len(parts) == 2 and parts[0].lower() in VARIANT_NAMES:
        # A game and one side (camette-wK): the side missing, not a bad side 'camette'.
        known = get_variant(parts[0].lower())
        a, b = (seat.letter for seat in known.seats[:2])
        raise MaterialError(f"'{text}': a class names two sides after the game, like "
                            f"{known.name}-{a}KM-{b}K")
    if variant is None:
        raise MaterialError(f"'{text}': name the game (like camette-wKM-bK)")
    if len(parts) != 2:
        raise MaterialError(f"'{text}': two sides joined by '-', like wKM-bK")
    if variant.is_team_game or variant.nseats not in (2, 3):
        raise MaterialError(f"{variant.name} has no two-sided endings")
    seats, pieces = [], []
    for part in parts:
        m = _SIDE.match(part)
        if m is None:
            raise MaterialError(f"'{part}': a seat letter, then K for each Knight and M for "
                                "each Man (Knights first)")
        try:
            seat = variant.seat_index(m.group(1))
        except (KeyError, ValueError):
            raise MaterialError(f"'{part}': {variant.name} has no seat '{m.group(1)}'") from None
        knights, men = len(m.group(2)), len(m.group(3))
        if knights + men == 0:
            raise MaterialError(f"'{part}': a side needs at least one piece")
        most_k, most_m = _start_pieces(variant, seat)
        if knights > most_k or men > most_m:
            raise MaterialError(
                f"'{part}': {variant.seats[seat].name} starts a {variant.name} game with "
                f"{most_k} Knight{'s' if most_k != 1 else ''} and {most_m} "
                f"M{'e' if most_m != 1 else 'a'}n, and never has more")
        seats.append(seat)
        pieces.append((knights, men))
    if seats[0] == seats[1]:
        raise MaterialError(f"'{text}': two different seats")
    if seats[0] > seats[1]:
        seats.reverse()
        pieces.reverse()
    return Material(variant, (seats[0], seats[1]), (pieces[0], pieces[1]))


def _start_pieces(variant: Variant, seat: int) -> tuple[int, int]:
    """(Knights, Men) the seat starts with: no class holds more."""
    kinds = [kind for s, kind in variant.start.values() if s == seat]
    return kinds.count(KNIGHT), kinds.count(MAN)


def material_of(pos) -> Material | None:
    """The class of `pos`: None unless exactly two seats have pieces (and, with three seats,
    the third is out of the game)."""
    v = pos.variant
    if v.teams:
        return None
    alive = [s for s in range(v.nseats) if pos.occ[s]]
    if len(alive) != 2:
        return None
    if v.nseats == 3 and len(pos.eliminated) != 1:
        return None
    pieces = []
    for s in alive:
        k = pos.kn[s].bit_count()
        pieces.append((k, pos.occ[s].bit_count() - k))
    return Material(v, (alive[0], alive[1]), (pieces[0], pieces[1]))


class Indexer:
    """Position <-> index for one class (built once per class; the probe's hot path)."""

    def __init__(self, material: Material) -> None:
        self.material = m = material
        v = m.variant
        self.cells = v.board.cells
        self.ordinal = {c: i for i, c in enumerate(self.cells)}
        self.groups = m.groups
        self.sizes = []
        free = len(self.cells)
        for _, _, n in self.groups:
            self.sizes.append(comb(free, n))
            free -= n
        self.base_size = m.base_size
        self.seats = m.seats
        limit = v.castle_move_limit
        self.cm_span = limit + 1
        self.own = [sorted(v.own_castle[s]) for s in m.seats]
        self.duty_span = [len(o) + 1 for o in self.own]
        self.duty_states = self.duty_span[0] * self.duty_span[1]
        self.extra_states = (limit + 1) ** 2 * self.duty_states
        self.target_bits = [v.target_bits[s] for s in m.seats]

    def placement(self, pos) -> int:
        """The placement index of `pos`'s pieces (the caller checked the class)."""
        ordinal = self.ordinal
        used: list[int] = []
        idx = 0
        for (seat, kind, _), size in zip(self.groups, self.sizes, strict=True):
            bits = pos.kn[seat] if kind == KNIGHT else pos.occ[seat] & ~pos.kn[seat]
            ords = sorted(ordinal[c] for c in cells_of(bits))
            rank = 0
            for i, o in enumerate(ords):
                rank += comb(o - bisect_left(used, o), i + 1)
            for o in ords:
                insort(used, o)
            idx = idx * size + rank
        return idx

    def extra(self, pos) -> int:
        """The code of the Castle Moves used and the exit duties pending (0: none); -1 for
        a state no table holds (two duties of one seat)."""
        s0, s1 = self.seats
        cm = pos.castle_moves[s0] * self.cm_span + pos.castle_moves[s1]
        duty = 0
        for i, s in enumerate(self.seats):
            d = pos.duty[s] & pos.occ[s]
            if not d:
                code = 0
            elif d & (d - 1):
                return -1  # two duties of one seat: a state no table holds
            else:
                cell = d.bit_length() - 1
                code = self.own[i].index(cell) + 1 if cell in self.own[i] else 0
            duty = duty * self.duty_span[i] + code
        return cm * self.duty_states + duty

    def base(self, pos) -> int:
        return self.placement(pos) * 2 + (0 if pos.turn == self.seats[0] else 1)

    def extras_for(self, pos) -> list[int]:
        """Every extra code a position with these cells can have (0 first): Castle Moves
        used only by a seat with a piece in its target castle, duties only on own castle
        cells that hold a piece of that seat."""
        v = self.material.variant
        cms = []
        for s in self.seats:
            if v.castle_move_limit and pos.occ[s] & v.target_bits[s]:
                cms.append(range(v.castle_move_limit + 1))
            else:
                cms.append(range(1))
        duties = []
        for i, s in enumerate(self.seats):
            options = [0] + [j + 1 for j, c in enumerate(self.own[i]) if pos.occ[s] >> c & 1]
            duties.append(options)
        out = []
        for a in cms[0]:
            for b in cms[1]:
                for d0 in duties[0]:
                    for d1 in duties[1]:
                        cm = a * self.cm_span + b
                        out.append(cm * self.duty_states + d0 * self.duty_span[1] + d1)
        return out

    def set_extra(self, pos, code: int) -> None:
        """Put the Castle Moves and duties of `code` on `pos` (the seats in play)."""
        cm, duty = divmod(code, self.duty_states)
        s0, s1 = self.seats
        pos.castle_moves[s0], pos.castle_moves[s1] = divmod(cm, self.cm_span)
        d0, d1 = divmod(duty, self.duty_span[1])
        pos.duty[s0] = 1 << self.own[0][d0 - 1] if d0 else 0
        pos.duty[s1] = 1 << self.own[1][d1 - 1] if d1 else 0

    def placements(self):
        """Every placement as (index, [(seat, kind, cells), ...]), in no fixed order."""
        cells = self.cells
        groups = self.groups

        def walk(g: int, free: list[int], idx: int, placed: list):
            if g == len(groups):
                yield idx, placed
                return
            seat, kind, n = groups[g]
            size = self.sizes[g]
            for combo in combinations(range(len(free)), n):
                rank = 0
                for i, r in enumerate(combo):
                    rank += comb(r, i + 1)
                chosen = [free[r] for r in combo]
                taken = set(combo)
                rest = [f for r, f in enumerate(free) if r not in taken]
                yield from walk(g + 1, rest, idx * size + rank, placed + [(seat, kind, chosen)])

        yield from walk(0, list(cells), 0, [])


def classes(variant: Variant | str, pieces: int, least: int = 2) -> list[Material]:
    """Every class of `variant` with `least` to `pieces` pieces on the board, fewest first,
    each side holding at most the Knights and Men it starts with. Two seats: White against
    Black; three seats: each pair of seats (the third out of the game)."""
    if isinstance(variant, str):
        variant = get_variant(variant)
    if variant.is_team_game or variant.nseats not in (2, 3):
        return []
    most = [_start_pieces(variant, s) for s in range(variant.nseats)]
    pairs = [(0, 1)] if variant.nseats == 2 else [(0, 1), (1, 2), (0, 2)]
    out = []
    for total in range(least, pieces + 1):
        for s0, s1 in pairs:
            for k0 in range(most[s0][0] + 1):
                for m0 in range(most[s0][1] + 1):
                    n1 = total - k0 - m0
                    if k0 + m0 == 0 or n1 <= 0:
                        continue
                    for k1 in range(min(n1, most[s1][0]) + 1):
                        m1 = n1 - k1
                        if m1 <= most[s1][1]:
                            out.append(Material(variant, (s0, s1), ((k0, m0), (k1, m1))))
    return out
