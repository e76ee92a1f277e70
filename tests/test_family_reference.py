"""Camelot, Cam, Camette, Chivalry and Grand Cam move generation against an independent
reference (FAMILY-RULES.md §3, §4, §6, §8; RULES.md §1; docs/rules.md §1 for two pending exits).

The reference below shares no code with canter.engine.rules.movegen nor the board's tables:
it builds each board from the law's (file, rank) spans, steps in the eight king directions
on names, follows jump chains leg by leg and canters as a search over (cell, clean so far)
states, and keeps the set of (start, end, captured cells) of the legal moves. It first
proves itself on the law's opening counts (FAMILY-RULES §11). The engine must then produce
exactly that set, its fast counter the same number and its quick test for a move the same
answer, on many random positions of every game and along random games from the start
(Grand Cam with its side castles closed, the default, and with side_castles="own").
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from canter.engine.rules import movegen
from canter.engine.rules.position import Position
from canter.engine.rules.variant import KNIGHT, MAN, get_variant

Pieces = dict[str, tuple[int, int]]  # cell name -> (seat, kind)
Key = tuple[str, str, frozenset[str]]  # a move's identity (RULES.md §4)

DIRS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))


@dataclass
class Game:
    """One game as the law states it, plus what the reference derives from that."""

    case: str  # test id
    variant: str
    spans: dict[tuple[int, ...], str]  # ranks -> first and last file on them
    size: int  # the cell count the law states
    seats: tuple[str, ...]  # in turn order
    castles: tuple[tuple[str, ...], ...]  # each seat's own castle
    target_of: tuple[int, ...]  # the seat whose castle each seat tries to enter
    teams: tuple[int, ...]
    castle_move_limit: int
    start: tuple[tuple[str, str], ...]  # per seat: its Knights, its Men
    side_castles: str = "closed"
    max_pieces: int = 6  # per seat, in random set-ups
    # The law's counts of distinct moves from the start at depths 1 and 2 (none given
    # for an option), and where it lists the first seat's opening moves, those.
    openings: tuple[int, int] | None = None
    first_moves: str = ""
    cells: list[str] = field(init=False)
    rays: dict[str, list[tuple[str, str | None]]] = field(init=False)
    own: list[frozenset[str]] = field(init=False)
    target: list[frozenset[str]] = field(init=False)
    forbidden: list[frozenset[str]] = field(init=False)
    friends: list[frozenset[int]] = field(init=False)

    def __post_init__(self) -> None:
        self.cells = sorted(
            f"{chr(f)}{r}" for ranks, (lo, hi) in self.spans.items() for r in ranks
            for f in range(ord(lo), ord(hi) + 1))
        names = set(self.cells)

        def at(cell: str, d: tuple[int, int], k: int) -> str | None:
            out = f"{chr(ord(cell[0]) + k * d[0])}{int(cell[1:]) + k * d[1]}"
            return out if out in names else None

        # Per cell, the (neighbour, cell beyond) of every direction that has a neighbour.
        self.rays = {c: [(n, at(c, d, 2)) for d in DIRS if (n := at(c, d, 1))]
                     for c in self.cells}
        n = len(self.seats)
        castle = [frozenset(c) for c in self.castles]
        side = [frozenset().union(*(castle[o] for o in range(n)
                                    if o not in (s, self.target_of[s]))) for s in range(n)]
        # Ruling R14: side castles are never entered, or (option) count as one's own.
        as_own = self.side_castles == "own"
        self.own = [castle[s] | side[s] if as_own else castle[s] for s in range(n)]
        self.forbidden = [frozenset() if as_own else side[s] for s in range(n)]
        self.target = [castle[self.target_of[s]] for s in range(n)]
        self.friends = [frozenset(o for o in range(n) if self.teams[o] == self.teams[s])
                        for s in range(n)]

    def position(self) -> Position:
        variant = get_variant(self.variant)
        rules = variant.default_rules.with_option("side_castles", self.side_castles) \
            if len(self.seats) == 4 else variant.default_rules
        return Position(variant, rules)

    def start_pieces(self) -> Pieces:
        return {c: (s, kind) for s, layout in enumerate(self.start)
                for kind, cells in ((KNIGHT, layout[0]), (MAN, layout[1]))
                for c in cells.split()}


def _two_players(case: str, spans: dict[tuple[int, ...], str], size: int,
                 castles: tuple[tuple[str, ...], tuple[str, ...]], castle_moves: int,
                 start: tuple[tuple[str, str], ...], max_pieces: int,
                 openings: tuple[int, int] | None, first_moves: str = "") -> Game:
    return Game(case, case, spans, size, ("white", "black"), castles, (1, 0), (0, 1),
                castle_moves, start, max_pieces=max_pieces, openings=openings,
                first_moves=first_moves)


def _grand_cam(case: str, side_castles: str, openings: tuple[int, int] | None) -> Game:
    # Turn order Red, Green, Blue, Yellow; Red+Blue against Green+Yellow; each aims at the
    # castle of the seat opposite (Ruling R15). Red's Men and Blue's pieces are Ruling R12's.
    return Game(
        case, "grand-cam",
        {(1, 13): "GG", (2, 12): "FH", (3, 11): "DJ", (4, 5, 9, 10): "CK", (6, 8): "BL",
         (7,): "AM"}, 93,
        ("red", "green", "blue", "yellow"), (("G1",), ("G13",), ("A7",), ("M7",)),
        (1, 0, 3, 2), (0, 1, 0, 1), 0,
        (("F2 H2", "G2 F3 G3 H3 G4"), ("F12 H12", "G12 F11 G11 H11 G10"),
         ("B6 B8", "D7 C6 C7 C8 B7"), ("L6 L8", "J7 K6 K7 K8 L7")),
        side_castles=side_castles, openings=openings,
        first_moves="F2-E3 F2-F4 F2-H4 F3-E3 F3-E4 F3-F4 F3-H5 G2-E4 G2-I4 G3-E3 G3-F4 G3-G5 "
                    "G3-H4 G3-I3 G4-F4 G4-F5 G4-G5 G4-H4 G4-H5 H2-F4 H2-H4 H2-I3 H3-F5 H3-H4 "
                    "H3-I3 H3-I4" if openings else "")


GAMES = [
    _two_players("cam", {(1, 13): "DD", (2, 12): "CE", (3, 11): "BF",
                         tuple(range(4, 11)): "AG"}, 67, (("D1",), ("D13",)), 0,
                 (("C4 E4", "B5 C5 D5 E5 F5"), ("C10 E10", "B9 C9 D9 E9 F9")), 7, (54, 2916)),
    _two_players("camette", {(1, 7): "CC", (2, 6): "BD", (3, 4, 5): "AE"}, 23,
                 (("C1",), ("C7",)), 0, (("C2", "B3 C3 D3"), ("C6", "B5 C5 D5")), 5,
                 (22, 345),
                 "B3-A3 B3-A4 B3-B2 B3-B4 B3-C4 C2-B2 C2-D2 C2-A4 C2-C4 C2-E4 C3-A3 C3-B2 "
                 "C3-B4 C3-C4 C3-D2 C3-D4 C3-E3 D3-C4 D3-D2 D3-D4 D3-E3 D3-E4"),
    _two_players("chivalry", {(1, 16): "GH", (2, 15): "DK", (3, 14): "CL", (4, 13): "BM",
                              tuple(range(5, 13)): "AN"}, 176,
                 (("G1", "H1"), ("G16", "H16")), 2,
                 (("C6 D6 K6 L6 C7 D7 K7 L7", "E6 E7 F6 F7 G6 G7 H6 H7 I6 I7 J6 J7"),
                  ("C10 D10 K10 L10 C11 D11 K11 L11",
                   "E10 E11 F10 F11 G10 G11 H10 H11 I10 I11 J10 J11")), 12, (132, 17470)),
    # Camelot itself (RULES.md §1): the same rules on its own board; the law gives only
    # its count at depth 1 (100), checked below.
    _two_players("camelot", {(1, 16): "FG", (2, 15): "CJ", (3, 14): "BK",
                             tuple(range(4, 14)): "AL"}, 160,
                 (("F1", "G1"), ("F16", "G16")), 2,
                 (("C6 D7 I7 J6", "D6 E6 F6 G6 H6 I6 E7 F7 G7 H7"),
                  ("C11 D10 I10 J11", "D11 E11 F11 G11 H11 I11 E10 F10 G10 H10")), 12, None),
    _grand_cam("grand-cam", "closed", (26, 676)),
    _grand_cam("grand-cam-side-own", "own", None),
]
IDS = [g.case for g in GAMES]


def reference_moves(game: Game, pieces: Pieces, seat: int, duty: frozenset[str],
                    used: int) -> set[Key]:
    """Legal moves of `seat`; `duty` holds its pieces that must leave their own castle,
    `used` its Castle Moves made so far."""
    own, target, forbidden = game.own[seat], game.target[seat], game.forbidden[seat]
    friends, rays = game.friends[seat], game.rays

    def jumps(start: str, cur: str, taken: frozenset[str]) -> list[tuple[str, str]]:
        """(enemy jumped, landing) from `cur`; the moving piece has left `start`, and the
        pieces taken so far are off the board."""
        out = []
        for over, land in rays[cur]:
            if land is None or land in forbidden or over in taken:
                continue
            if over not in pieces or pieces[over][0] in friends:
                continue
            if land in pieces and land != start and land not in taken:
                continue
            out.append((over, land))
        return out

    def chains(start: str, cur: str, out: set[Key]) -> None:
        """Every finished jump chain from `cur`: one that has jumped goes on while it can,
        except that entering the target castle ends the move."""
        seen: set[tuple[str, frozenset[str]]] = set()

        def go(cell: str, taken: frozenset[str]) -> None:
            if (cell, taken) in seen:
                return  # the same board and cell: the same continuations
            seen.add((cell, taken))
            nxt = [] if cell in target else jumps(start, cell, taken)
            if not nxt and taken:
                out.add((start, cell, taken))
            for over, land in nxt:
                go(land, taken | {over})

        go(cur, frozenset())

    def canters(start: str) -> dict[str, bool]:
        """Cells a canter from `start` can end on -> whether some route there never lands
        where a jump is offered (what the Knight's canter rule asks)."""
        states = {(start, True)}
        queue = [(start, True)]
        for cur, clean in queue:
            if cur in target:
                continue  # entering ends the move
            for over, land in rays[cur]:
                if land is None or over == start or over not in pieces:
                    continue
                if pieces[over][0] not in friends:
                    continue
                if (land in pieces and land != start) or land in own or land in forbidden:
                    continue
                offers = land not in target and bool(jumps(start, land, frozenset()))
                state = (land, clean and not offers)
                if state not in states:
                    states.add(state)
                    queue.append(state)
        ends: dict[str, bool] = {}
        for cell, clean in states:
            if cell != start:
                ends[cell] = ends.get(cell, False) or clean
        return ends

    def moves_of(start: str) -> tuple[set[Key], set[Key]]:
        """(capturing, non-capturing) moves of one piece, before any duty is applied."""
        knight = pieces[start][1] == KNIGHT
        caps: set[Key] = set()
        quiet: set[Key] = set()
        for n, _ in rays[start]:
            if n not in pieces and n not in own and n not in forbidden:
                quiet.add((start, n, frozenset()))
        chains(start, start, caps)
        for end, clean in canters(start).items():
            if knight and end not in target:
                chains(start, end, caps)  # a Knight's Charge
            if clean or not knight:
                quiet.add((start, end, frozenset()))
        return caps, quiet

    def can_jump(cell: str) -> bool:
        return bool(jumps(cell, cell, frozenset()))

    out: set[Key] = set()
    if duty:
        found = {c: moves_of(c) for c in sorted(duty)}
        if any(caps or quiet for caps, quiet in found.values()):
            # docs/rules.md §1: one of the pieces that owe an exit moves; if one of them
            # can jump, the move captures.
            must = any(can_jump(c) for c in duty)
            for caps, quiet in found.values():
                out |= caps if must else caps | quiet
            return out
    mine = sorted(c for c, (s, _) in pieces.items() if s == seat and c not in target)
    # Only the mover's own pieces make the duty to capture (a partner's jumps do not).
    must = any(can_jump(c) for c in mine)
    for c in mine:
        caps, quiet = moves_of(c)
        out |= caps if must else caps | quiet
    if not must and used < game.castle_move_limit:
        for c in pieces:
            if pieces[c][0] == seat and c in target:
                out |= {(c, n, frozenset()) for n, _ in rays[c]
                        if n in target and n not in pieces}
    return out


@dataclass
class Setup:
    pieces: Pieces
    turn: int
    duty: list[set[str]]  # per seat
    used: list[int]  # Castle Moves per seat


def random_setup(game: Game, rng: random.Random) -> Setup:
    """Pieces of random seats and kinds, clustered round a random cell (so leaps, chains and
    charges are common) or spread over the board, never where the seat could not stand in a
    game still going on. Often the cluster surrounds pieces of the seat to move that owe an
    exit, or one waiting in a two-cell target castle, or a lone piece at the board's edge
    (which a full crowd may leave without a move)."""
    n = len(game.seats)
    turn = rng.randrange(n)
    pieces: Pieces = {}
    duty: list[set[str]] = [set() for _ in range(n)]
    in_target = [False] * n
    counts = [rng.randint(0 if n == 4 else 1, game.max_pieces) for _ in range(n)]
    centre = rng.choice(game.cells)
    crowd = False
    roll = rng.random()

    def place(cell: str, seat: int) -> None:
        pieces[cell] = (seat, rng.choice((MAN, KNIGHT)))

    if roll < 0.4:
        bound = sorted(game.own[turn])
        k = 1 if len(bound) == 1 or rng.random() < 0.4 else 2
        chosen = rng.sample(bound, k)
        for c in chosen:
            place(c, turn)
            duty[turn].add(c)
        centre = rng.choice(game.rays[chosen[0]])[0]
        crowd = rng.random() < 0.3
    elif roll < 0.55:
        lone = turn if rng.random() < 0.7 else rng.randrange(n)
        centre = rng.choice([c for c in game.cells if len(game.rays[c]) < 8
                             and c not in game.own[lone] | game.target[lone]
                             | game.forbidden[lone]])
        place(centre, lone)
        counts[lone] = 0
        crowd = True
    elif roll < 0.75 and game.castle_move_limit:
        centre = rng.choice(sorted(game.target[turn]))
        place(centre, turn)
        in_target[turn] = True
    if crowd:
        # More pieces than a game has: enough to fill two rings round the centre.
        counts = [c and 2 * game.max_pieces for c in counts]
    fc, rc = ord(centre[0]), int(centre[1:])
    density = 1.0 if crowd else rng.uniform(0.4, 0.9)
    if crowd or rng.random() < 0.75:
        spread = 0.5 if crowd else rng.uniform(0.5, 3.0)
        order = sorted(game.cells, key=lambda c: max(abs(ord(c[0]) - fc), abs(int(c[1:]) - rc))
                       + spread * rng.random())
    else:
        order = rng.sample(game.cells, len(game.cells))
    todo = [s for s in range(n) for _ in range(counts[s])]
    rng.shuffle(todo)
    for cell in order:
        if not todo:
            break
        if cell in pieces or rng.random() > density:
            continue
        s = todo[-1]
        if cell in game.forbidden[s]:
            continue
        if cell in game.target[s]:
            # Entering a one-cell target castle ends the game; in a two-cell one a single
            # piece may wait (a second would end it).
            if game.castle_move_limit == 0 or in_target[s] or rng.random() < 0.3:
                continue
            in_target[s] = True
        if cell in game.own[s]:
            if rng.random() < 0.5:
                continue
            # A piece gets there only by a jump, and owes an exit until it leaves; now and
            # then none is recorded, which leaves it an ordinary piece.
            if rng.random() < 0.9:
                duty[s].add(cell)
        todo.pop()
        place(cell, s)
    used = [rng.randint(0, game.castle_move_limit) for _ in range(n)]
    return Setup(pieces, turn, duty, used)


def build(game: Game, setup: Setup) -> Position:
    pos = game.position()
    v = pos.variant
    for cell, (s, kind) in setup.pieces.items():
        pos.put(v.cell(cell), s, kind)
    pos.turn = setup.turn
    for s, cells in enumerate(setup.duty):
        for c in cells:
            pos.duty[s] |= 1 << v.cell(c)
    pos.castle_moves = list(setup.used)
    # Finds a game already decided; in Grand Cam it also passes the turn on from a seat with
    # no move (or no pieces), as a game would.
    pos.reset_derived()
    return pos


def engine_moves(pos: Position) -> set[Key]:
    name = pos.variant.cell_name
    return {(name(m.start), name(m.end), frozenset(name(c) for c in m.captures))
            for m in movegen.generate(pos)}


def spell(moves: set[Key]) -> str:
    return " ".join(sorted(f"{a}{'x' if cap else '-'}{b}" + (f"[{','.join(sorted(cap))}]"
                                                             if cap else "")
                           for a, b, cap in moves)) or "(none)"


def read(game: Game, pos: Position) -> tuple[Pieces, list[frozenset[str]]]:
    """The pieces and each seat's pending exits, by name. A duty binds a piece: a mark on a
    cell that holds no piece of that seat binds nothing."""
    v = pos.variant
    pieces = {v.cell_name(c): (code >> 1, code & 1) for c in v.cells
              if (code := pos.cells[c]) >= 0}
    duty = [frozenset(v.cell_name(c) for c in v.cells
                      if (pos.duty[s] >> c) & 1 and pieces.get(v.cell_name(c), (-1,))[0] == s)
            for s in range(len(game.seats))]
    return pieces, duty


def check(game: Game, pos: Position, whole: bool = True) -> list[set[Key]]:
    """Every seat's reference moves against has_move; with `whole`, the side to move's
    moves and count too. Returns the reference moves of every seat."""
    pieces, duty = read(game, pos)
    out = []
    for s in range(len(game.seats)):
        want = reference_moves(game, pieces, s, duty[s], pos.castle_moves[s])
        assert movegen.has_move(pos, s) == bool(want), (
            f"{game.case}: has_move for {game.seats[s]} in {pos.to_string()}")
        out.append(want)
    if whole:
        want, got = out[pos.turn], engine_moves(pos)
        assert got == want, (f"{game.case}: {pos.to_string()}\n  engine lacks: {spell(want - got)}"
                             f"\n  engine adds: {spell(got - want)}")
        assert movegen.count_moves(pos) == len(want), f"{game.case}: count in {pos.to_string()}"
    return out


POSITIONS = {"cam": 1200, "camette": 1200, "chivalry": 1200, "camelot": 1000, "grand-cam": 1000,
             "grand-cam-side-own": 1000}
GAMES_PLAYED, PLIES = 8, 150  # per game, along random games from the start


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_board_and_castles_are_the_laws(game: Game) -> None:
    v = game.position().variant
    assert len(game.cells) == game.size
    assert sorted(v.cell_name(c) for c in v.cells) == game.cells
    assert tuple(seat.name for seat in v.seats) == game.seats
    names = [frozenset(v.cell_name(c) for c in cells) for cells in v.own_castle]
    assert names == [frozenset(c) for c in game.castles]
    assert [frozenset(v.cell_name(c) for c in cells) for cells in v.target_castle] \
        == game.target
    assert v.castle_move_limit == game.castle_move_limit
    assert {v.cell_name(c): p for c, p in v.start.items()} == game.start_pieces()


@pytest.mark.parametrize("game", [g for g in GAMES if g.openings], ids=lambda g: g.case)
def test_reference_counts_the_laws_openings(game: Game) -> None:
    """The reference itself against the law's figures (FAMILY-RULES §11): the first seat's
    moves from the start, and every reply of the next seat, the opening lists included."""
    assert game.openings
    pieces = game.start_pieces()
    none: frozenset[str] = frozenset()
    first = reference_moves(game, pieces, 0, none, 0)
    if game.first_moves:
        assert {f"{a}-{b}" for a, b, cap in first if not cap} == set(game.first_moves.split())
    replies = 0
    for start, end, taken in first:
        after = {c: p for c, p in pieces.items() if c != start and c not in taken}
        after[end] = pieces[start]
        replies += len(reference_moves(game, after, 1, none, 0))
    assert (len(first), replies) == game.openings


def test_reference_counts_camelots_100_first_moves() -> None:
    camelot = next(g for g in GAMES if g.case == "camelot")
    assert len(reference_moves(camelot, camelot.start_pieces(), 0, frozenset(), 0)) == 100


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_engine_matches_reference_on_random_positions(game: Game) -> None:
    rng = random.Random(f"family-reference-{game.case}")
    seen = dict.fromkeys(("compared", "captures", "one duty", "two duties", "walled in",
                          "castle move", "a seat stuck", "jump home", "side castle"), 0)
    for _ in range(POSITIONS[game.case]):
        pos = build(game, random_setup(game, rng))
        # has_move is asked of a decided game too (a two-player game ends when the side to
        # move has none): only the move list needs a game still on.
        over = pos.outcome() is not None
        every = check(game, pos, whole=not over)
        seen["a seat stuck"] += not all(every)
        if over:
            continue
        moves = every[pos.turn]
        seen["compared"] += 1
        seen["captures"] += any(cap for _, _, cap in moves)
        bound = read(game, pos)[1][pos.turn]
        seen["one duty"] += len(bound) == 1
        seen["two duties"] += len(bound) >= 2
        # Pieces that owe an exit but cannot move: the normal rules hold this turn.
        seen["walled in"] += bool(bound) and not any(a in bound for a, _, _ in moves)
        seen["castle move"] += any(a in game.target[pos.turn] for a, _, _ in moves)
        seen["jump home"] += any(b in game.own[pos.turn] for _, b, _ in moves)
        seen["side castle"] += any(b in game.own[pos.turn] - set(game.castles[pos.turn])
                                   for _, b, _ in moves)
    # The random positions reach what they are meant to test.
    wanted = {"compared": int(0.7 * POSITIONS[game.case]), "captures": 100, "one duty": 50,
              "walled in": 10, "a seat stuck": 10, "jump home": 10}
    if len(game.own[0]) > 1:
        wanted["two duties"] = 50
    if game.castle_move_limit:
        wanted["castle move"] = 10
    if game.side_castles == "own":
        wanted["side castle"] = 10
    short = {k: (seen[k], v) for k, v in wanted.items() if seen[k] < v}
    assert not short, f"{game.case}: too few positions of a kind (seen, wanted): {short}"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_engine_matches_reference_along_random_games(game: Game) -> None:
    """Positions as play makes them: exit duties the engine set itself, eliminated seats,
    passes."""
    rng = random.Random(f"family-games-{game.case}")
    for _ in range(GAMES_PLAYED):
        pos = game.position()
        for cell, (s, kind) in game.start_pieces().items():
            pos.put(pos.variant.cell(cell), s, kind)
        pos.reset_derived()
        for _ in range(PLIES):
            if pos.outcome() is not None:
                break
            check(game, pos)
            pos.push(rng.choice(pos.legal_moves()))
