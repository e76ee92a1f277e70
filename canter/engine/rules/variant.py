"""Games of the Camelot family as data: board, seats, castles, start, rule parameters.

The move generator and the position read only what is here; adding a game of the family
means adding a `Variant`, not changing the rules code.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from canter.engine.rules.board import Board, CellError, bits_of
from canter.engine.rules.text import shorten

MAN, KNIGHT = 0, 1
KIND_NAMES = ("man", "knight")

NUMBER_WORDS = {1: "a piece", 2: "two pieces", 3: "three pieces", 4: "four pieces"}


@dataclass(frozen=True)
class Seat:
    name: str  # "white"
    letter: str  # turn letter in position strings; also the Man letter; Knight = upper case


@dataclass(frozen=True)
class Rules:
    """Rulings that a tournament may set otherwise (RULES.md marks them "(option)").

    The quiet limit and the ruling on a seat with no move differ from game to game: left
    out (None), they are the game's own, filled in by `for_game` when a `Position` is made,
    so `Rules(repetition="claim")` changes only the repetition rule in Tri-Camelot too."""

    repetition: str = "auto"  # "auto": third repetition ends the game; "claim"; "off"
    # Plies without capture (or castle entry, see Variant); 0 = off; None = the game's.
    quiet_limit: int | None = None
    exit_duty_persists: bool = True  # own-castle exit duty outlives a turn with no move
    # A seat that cannot move: "lose" (Camelot) or "pass" (Tri-Camelot). With three seats,
    # "lose" eliminates that seat and takes its pieces off the board; the last seat left
    # wins. None = the game's.
    no_move: str | None = None
    # Parker's 1887 endings (Chivalry's original rules): a seat reduced to one piece loses
    # when the other seat keeps two or more. Two-seat games only; off everywhere by default.
    parker_1887: bool = False
    # Team games: may a seat enter the side castles (its partner's and the non-opposite
    # opponent's)? "closed" (never, by any move or leg) or "own" (like its own castle:
    # only by a jump, which then goes on out or leaves next turn).
    side_castles: str = "closed"

    CHOICES = {"repetition": ("auto", "claim", "off"), "no_move": ("lose", "pass"),
               "side_castles": ("closed", "own")}

    def __post_init__(self) -> None:
        # Rulings built directly (not through `with_option`) are held to the same values:
        # a misspelt choice or a negative limit would otherwise referee another game.
        for name, allowed in self.CHOICES.items():
            value = getattr(self, name)
            if value not in allowed and not (value is None and name in GAME_RULINGS):
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, not "
                                 f"{value!r}")
        limit = self.quiet_limit
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                                  or limit < 0):
            raise ValueError(f"quiet_limit must be a whole number, 0 (off) or more, not "
                             f"{limit!r}")
        for name in ("exit_duty_persists", "parker_1887"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, not "
                                 f"{getattr(self, name)!r}")

    @classmethod
    def for_variant(cls, variant: Variant) -> Rules:
        return variant.default_rules

    def for_game(self, variant: Variant) -> Rules:
        """These rulings with those left to the game (None) set to `variant`'s own."""
        return self.filled_from(variant.default_rules)

    def filled_from(self, base: Rules) -> Rules:
        left = {name: getattr(base, name) for name in GAME_RULINGS
                if getattr(self, name) is None}
        return replace(self, **left) if left else self

    def idle_in(self, variant: Variant) -> dict[str, str]:
        """The options set otherwise than `variant`'s default that the game never
        consults: field name -> why. Accepted all the same (a tournament may set one
        ruling for several games), but a client should hear that it changes nothing."""
        rules = self.for_game(variant)
        default = variant.default_rules
        idle = {}
        if variant.nseats == 2 and rules.no_move != default.no_move:
            idle["no_move"] = ("a side with no legal move always ends a two-player game "
                               "(it loses, or draws without enough pieces to win)")
        if variant.nseats != 2 and self.parker_1887 != default.parker_1887:
            idle["parker_1887"] = "Parker's 1887 endings are for two-player games"
        if not variant.teams and self.side_castles != default.side_castles:
            idle["side_castles"] = "only team games have side castles"
        return idle

    def as_played_in(self, variant: Variant) -> Rules:
        """These rulings with those `variant` never consults set back to its defaults: what
        decides whether something built under the defaults (endgame tables, the opening
        book, a proof) still holds."""
        rules = self.for_game(variant)
        idle = rules.idle_in(variant)
        if not idle:
            return rules
        default = variant.default_rules
        return replace(rules, **{name: getattr(default, name) for name in idle})

    def with_option(self, name: str, value: object) -> Rules:
        """A copy with one option changed; ValueError naming the problem otherwise."""
        known = {f.name: f for f in fields(self)}
        if name not in known:
            raise ValueError(f"unknown rules option '{name}'")
        current = getattr(self, name)
        if current is None:  # left to the game: its values are of the kind of Camelot's
            current = getattr(CAMELOT_RULES, name)
        if isinstance(current, bool):
            if isinstance(value, str):
                if value.lower() not in ("true", "false"):
                    raise ValueError(f"{name} must be true or false, not '{value}'")
                value = value.lower() == "true"
            elif not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, not '{value}'")
        elif isinstance(current, int):
            if isinstance(value, bool):  # (int(True) is 1: no number was given)
                raise ValueError(f"{name} must be a whole number, not '{value}'")
            try:
                if isinstance(value, str) and (len(value.strip()) > 12 or "_" in value
                                               or not value.isascii()):
                    # (int() refuses 4,300 digits with a hint of its own, and reads other
                    # scripts' digits and '1_000')
                    raise ValueError
                value = int(value)
            except (TypeError, ValueError):
                raise ValueError(f"{name} must be a whole number (at most 12 digits), not "
                                 f"'{shorten(str(value))}'") from None
            if value < 0:
                raise ValueError(f"{name} must not be negative")
        else:
            value = str(value).lower()  # (a choice not offered is __post_init__'s to refuse)
        return replace(self, **{name: value})


# The rulings whose default is the game's own (Rules leaves them None until `for_game`).
GAME_RULINGS = ("quiet_limit", "no_move")
CAMELOT_RULES = Rules(repetition="auto", quiet_limit=100, no_move="lose")


@dataclass(frozen=True, eq=False)
class Variant:
    name: str
    board: Board
    seats: tuple[Seat, ...]
    own_castle: tuple[frozenset[int], ...]  # per seat
    target_castle: tuple[frozenset[int], ...]  # per seat: entering it counts towards a win
    forbidden_castle: tuple[frozenset[int], ...]  # per seat: never entered
    start: dict[int, tuple[int, int]]  # cell -> (seat, kind)
    target_pieces: int  # pieces needed in the target castle to win
    castle_move_limit: int  # Castle Moves per seat per game
    win_min_pieces: int  # last seat with pieces wins only with at least this many
    bare_max_pieces: int  # every seat down to at most this many pieces: draw (0 = never)
    entry_resets_quiet: bool  # does a castle entry reset the quiet-move counter
    default_rules: Rules = CAMELOT_RULES
    # Team games: the team of each seat (partners share a number); empty = every seat alone.
    teams: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # A game that names no quiet limit or no-move ruling of its own plays Camelot's.
        object.__setattr__(self, "default_rules", self.default_rules.filled_from(CAMELOT_RULES))
        masks = {
            "own_bits": tuple(bits_of(c) for c in self.own_castle),
            "target_bits": tuple(bits_of(c) for c in self.target_castle),
            "forbidden_bits": tuple(bits_of(c) for c in self.forbidden_castle),
        }
        for k, v in masks.items():
            object.__setattr__(self, k, v)
        owner = {}
        for seat, cells in enumerate(self.own_castle):
            for c in cells:
                owner[c] = seat
        object.__setattr__(self, "castle_owner", owner)
        team = self.teams or tuple(range(len(self.seats)))
        object.__setattr__(self, "team_of", team)
        object.__setattr__(self, "partners", tuple(
            tuple(o for o in range(len(self.seats)) if team[o] == team[s])
            for s in range(len(self.seats))))
        object.__setattr__(self, "_under", {})
        # A capture ends a two-seat game by the count of pieces (last piece taken, bare
        # pieces, Parker 1887's one against two) only once a seat has at most this many.
        self.ending_max_pieces: int
        object.__setattr__(self, "ending_max_pieces", max(self.bare_max_pieces, 1))

    @property
    def is_team_game(self) -> bool:
        return bool(self.teams)

    def team_name(self, seat: int) -> str:
        """`red+blue`: the seats of `seat`'s team in turn order."""
        return "+".join(self.seats[s].name for s in self.partners[seat])

    def under(self, rules: Rules) -> Variant:
        """This game as `rules` plays it: with side_castles="own" a team game treats each
        seat's side castles as its own castle (the same object otherwise)."""
        if not self.teams or rules.side_castles == "closed":
            return self
        got = self._under.get(rules.side_castles)
        if got is None:
            got = replace(self)
            own = tuple(a | b for a, b in zip(self.own_bits, self.forbidden_bits, strict=True))
            object.__setattr__(got, "own_bits", own)
            object.__setattr__(got, "forbidden_bits", tuple(0 for _ in self.seats))
            object.__setattr__(got, "_under", self._under)
            self._under[rules.side_castles] = got
        return got

    def __reduce_ex__(self, protocol):
        # A registered game (or its form under a rules option) travels by name: a pickle
        # of a position, such as a search job sent to a helper process through a pipe,
        # would otherwise carry the board's tables, tens of kilobytes.
        registered = _CACHE.get(self.name)
        if registered is self:
            return get_variant, (self.name,)
        if registered is not None:
            for side_castles, got in registered._under.items():
                if got is self:
                    return _registered_under, (self.name, side_castles)
        return super().__reduce_ex__(protocol)

    # Convenience wrappers over the board, so callers rarely need `variant.board`.
    @property
    def cells(self) -> tuple[int, ...]:
        return self.board.cells

    def cell(self, name: str) -> int:
        """CellError (a KeyError) naming the game if there is no such cell."""
        try:
            return self.board.cell(name)
        except CellError as exc:
            raise CellError(f"{self.name}: {exc}") from None

    def cell_name(self, cell: int) -> str:
        try:
            return self.board.name_of(cell)
        except CellError as exc:
            raise CellError(f"{self.name}: {exc}") from None

    def file_rank(self, cell: int) -> tuple[int, int]:
        self.cell_name(cell)  # the same refusal of a number that is no cell
        return self.board.coords[cell]

    @property
    def nseats(self) -> int:
        return len(self.seats)

    def seat_index(self, name_or_letter: str) -> int:
        key = name_or_letter.lower()
        for i, seat in enumerate(self.seats):
            if key in (seat.name, seat.letter):
                return i
        raise KeyError(name_or_letter)

    def castle_text(self, cells: frozenset[int]) -> str:
        seat = self.castle_owner[next(iter(cells))]
        return f"the {self.seats[seat].name} castle"

    def __repr__(self) -> str:
        return f"Variant({self.name!r})"


KING_DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1))
HEX_DIRECTIONS = ((0, 2), (0, -2), (1, 1), (-1, -1), (1, -1), (-1, 1))


def _camelot() -> Variant:
    files = "ABCDEFGHIJKL"
    spans = {1: "FG", 16: "FG", 2: "CJ", 15: "CJ", 3: "BK", 14: "BK"}
    coords = []
    for r in range(1, 17):
        if r in (1, 16):
            coords += [(files.index("F"), r), (files.index("G"), r)]
            continue
        lo, hi = spans.get(r, "AL")
        coords += [(f, r) for f in range(files.index(lo), files.index(hi) + 1)]
    board = Board(files, coords, KING_DIRECTIONS)
    return _camelot_law("camelot", board, (("F1", "G1"), ("F16", "G16")), (
        (0, "C6 D7 I7 J6", "D6 E6 F6 G6 H6 I6 E7 F7 G7 H7"),
        (1, "C11 D10 I10 J11", "D11 E11 F11 G11 H11 I11 E10 F10 G10 H10"),
    ))


def _camelot_law(name: str, board: Board, castles: tuple[tuple[str, ...], tuple[str, ...]],
                 layout: tuple[tuple[int, str, str], ...]) -> Variant:
    """A two-player game under Camelot's law on its own board: two-square castles, two
    pieces in the enemy castle win, two Castle Moves, a lone piece cannot win."""
    return _two_players(name, board, castles, layout, target_pieces=2, castle_move_limit=2,
                        win_min_pieces=2, bare_max_pieces=1)


def _two_players(name: str, board: Board, castles: tuple[tuple[str, ...], tuple[str, ...]],
                 layout: tuple[tuple[int, str, str], ...], *, target_pieces: int,
                 castle_move_limit: int, win_min_pieces: int,
                 bare_max_pieces: int) -> Variant:
    """White against Black, each aiming at the other's castle."""
    white, black = (frozenset(board.cell(c) for c in cells) for cells in castles)
    return Variant(
        name=name,
        board=board,
        seats=(Seat("white", "w"), Seat("black", "b")),
        own_castle=(white, black),
        target_castle=(black, white),
        forbidden_castle=(frozenset(), frozenset()),
        start=_start(board, layout),
        target_pieces=target_pieces,
        castle_move_limit=castle_move_limit,
        win_min_pieces=win_min_pieces,
        bare_max_pieces=bare_max_pieces,
        # In the Cam family an entry ends the game, so whether it resets the quiet-move
        # count matters only under Camelot's law (R6).
        entry_resets_quiet=True,
        default_rules=CAMELOT_RULES,
    )


def _spans_board(files: str, spans: dict[int, str], ranks: int) -> Board:
    """A king-move board whose rank r holds the files spans[r][0]..spans[r][-1]."""
    coords = []
    for r in range(1, ranks + 1):
        lo, hi = spans[r][0], spans[r][-1]
        coords += [(f, r) for f in range(files.index(lo), files.index(hi) + 1)]
    return Board(files, coords, KING_DIRECTIONS)


def _mirrored(half: dict[int, str], ranks: int) -> dict[int, str]:
    """Rank spans given for the lower half, mirrored end to end (rank r -> ranks + 1 - r)."""
    out = dict(half)
    for r, span in half.items():
        out[ranks + 1 - r] = span
    return out


def _start(board: Board, layout: tuple[tuple[int, str, str], ...]) -> dict[int, tuple[int, int]]:
    start: dict[int, tuple[int, int]] = {}
    for seat, knights, men in layout:
        for name in knights.split():
            start[board.cell(name)] = (seat, KNIGHT)
        for name in men.split():
            start[board.cell(name)] = (seat, MAN)
    return start


def _cam_family(name: str, board: Board, castles: tuple[str, str],
                layout: tuple[tuple[int, str, str], ...]) -> Variant:
    """Cam and Camette (FAMILY-RULES §3-§4): Camelot on a smaller board whose castles are one
    cell each. One piece entering the other castle wins (R3); taking every enemy piece wins
    whatever is left (R4); no material draw; a side without a legal move loses (R5)."""
    return _two_players(name, board, ((castles[0],), (castles[1],)), layout,
                        target_pieces=1, castle_move_limit=0, win_min_pieces=1,
                        bare_max_pieces=0)


def _cam() -> Variant:
    # Ruling R1: rank 2 is C2-E2 (the printed list repeats C3 and C4 there).
    ranks = 13
    spans = _mirrored({1: "D", 2: "CE", 3: "BF"}, ranks)
    spans.update({r: "AG" for r in range(4, 11)})
    board = _spans_board("ABCDEFG", spans, ranks)
    return _cam_family("cam", board, ("D1", "D13"), (
        (0, "C4 E4", "B5 C5 D5 E5 F5"),
        (1, "C10 E10", "B9 C9 D9 E9 F9"),
    ))


def _camette() -> Variant:
    ranks = 7
    spans = _mirrored({1: "C", 2: "BD"}, ranks)
    spans.update({r: "AE" for r in range(3, 6)})
    board = _spans_board("ABCDE", spans, ranks)
    return _cam_family("camette", board, ("C1", "C7"), (
        (0, "C2", "B3 C3 D3"),
        (1, "C6", "B5 C5 D5"),
    ))


def _chivalry() -> Variant:
    """Parker's 1887 Chivalry, played as Camelot (Ruling R24) on its larger board; the
    1887 endings are the rules option `parker_1887`."""
    ranks = 16
    spans = _mirrored({1: "GH", 2: "DK", 3: "CL", 4: "BM"}, ranks)
    spans.update({r: "AN" for r in range(5, 13)})
    board = _spans_board("ABCDEFGHIJKLMN", spans, ranks)
    return _camelot_law("chivalry", board, (("G1", "H1"), ("G16", "H16")), (
        (0, "C6 D6 K6 L6 C7 D7 K7 L7", "E6 E7 F6 F7 G6 G7 H6 H7 I6 I7 J6 J7"),
        (1, "C10 D10 K10 L10 C11 D11 K11 L11",
         "E10 E11 F10 F11 G10 G11 H10 H11 I10 I11 J10 J11"),
    ))


def _tri_camelot() -> Variant:
    files = "ABCDEFGHIJK"
    ranks_by_file = {
        "A": (12, 14, 16),
        "B": range(9, 18, 2),
        "C": range(6, 19, 2),
        "D": range(3, 18, 2),
        "E": range(2, 19, 2),
        "F": range(1, 18, 2),
        "G": range(2, 19, 2),
        "H": range(3, 18, 2),
        "I": range(6, 19, 2),
        "J": range(9, 18, 2),
        "K": (12, 14, 16),
    }
    coords = [(files.index(f), r) for f, rs in ranks_by_file.items() for r in rs]
    board = Board(files, coords, HEX_DIRECTIONS)
    c = board.cell
    castles = [frozenset({c("F1")}), frozenset({c("A16")}), frozenset({c("K16")})]
    start: dict[int, tuple[int, int]] = {}
    for seat, knights, men in (
        (0, "E4 F5 G4", "D5 H5 E6 G6 F7"),
        (1, "B13 C14 C16", "B11 C12 D13 D15 D17"),
        (2, "J13 I14 I16", "J11 I12 H13 H15 H17"),
    ):
        for name in knights.split():
            start[c(name)] = (seat, KNIGHT)
        for name in men.split():
            start[c(name)] = (seat, MAN)
    # Left = next seat in turn order (the target); right = previous seat (forbidden).
    return Variant(
        name="tri-camelot",
        board=board,
        seats=(Seat("blue", "b"), Seat("red", "r"), Seat("green", "g")),
        own_castle=tuple(castles),
        target_castle=tuple(castles[(i + 1) % 3] for i in range(3)),
        forbidden_castle=tuple(castles[(i - 1) % 3] for i in range(3)),
        start=start,
        target_pieces=1,
        castle_move_limit=0,
        win_min_pieces=1,
        bare_max_pieces=0,
        entry_resets_quiet=False,
        default_rules=Rules(repetition="auto", quiet_limit=150, no_move="pass"),
    )


def _grand_cam() -> Variant:
    """Grand Cam (FAMILY-RULES §6): four seats in two teams on a 93-cell cross. Seat order
    is the turn order Red, Green, Blue, Yellow, so the teams alternate and team = seat % 2.
    Rank 3 is D3-J3 (Ruling R2: the printed K3 is a misprint); Red's Men and Blue's set-up
    are the quarter-turn images of the printed ones (Ruling R12)."""
    ranks = 13
    spans = _mirrored({1: "G", 2: "FH", 3: "DJ", 4: "CK", 5: "CK", 6: "BL"}, ranks)
    spans[7] = "AM"
    board = _spans_board("ABCDEFGHIJKLM", spans, ranks)
    c = board.cell
    # Castles in seat order: Red G1, Green G13, Blue A7, Yellow M7.
    castles = [frozenset({c(name)}) for name in ("G1", "G13", "A7", "M7")]
    return Variant(
        name="grand-cam",
        board=board,
        seats=(Seat("red", "r"), Seat("green", "g"), Seat("blue", "b"), Seat("yellow", "y")),
        own_castle=tuple(castles),
        # Ruling R15: the target is the castle of the seat opposite (Red<->Green,
        # Blue<->Yellow), i.e. seat ^ 1; the other two castles are side castles (R14).
        target_castle=tuple(castles[s ^ 1] for s in range(4)),
        forbidden_castle=tuple(castles[s ^ 2] | castles[s ^ 3] for s in range(4)),
        start=_start(board, (
            (0, "F2 H2", "G2 F3 G3 H3 G4"),
            (1, "F12 H12", "G12 F11 G11 H11 G10"),
            (2, "B6 B8", "D7 C6 C7 C8 B7"),
            (3, "L6 L8", "J7 K6 K7 K8 L7"),
        )),
        target_pieces=1,
        castle_move_limit=0,
        win_min_pieces=1,  # Ruling R18: taking both opponents wins whatever is left
        bare_max_pieces=0,
        # Ruling R25: 200 plies without a capture (an entry ends the game: it never resets).
        entry_resets_quiet=False,
        default_rules=Rules(repetition="auto", quiet_limit=200, no_move="lose"),
        teams=(0, 1, 0, 1),
    )


_VARIANTS = {
    "camelot": _camelot,
    "tri-camelot": _tri_camelot,
    "cam": _cam,
    "camette": _camette,
    "chivalry": _chivalry,
    "grand-cam": _grand_cam,
}
_CACHE: dict[str, Variant] = {}
VARIANT_NAMES = tuple(_VARIANTS)


def _registered_under(name: str, side_castles: str) -> Variant:
    return get_variant(name).under(Rules(side_castles=side_castles))


def get_variant(name: str) -> Variant:
    key = name.strip().lower()
    if key not in _VARIANTS:
        raise KeyError(f"unknown variant '{shorten(name)}' (known: {', '.join(VARIANT_NAMES)})")
    if key not in _CACHE:
        _CACHE[key] = _VARIANTS[key]()
    return _CACHE[key]
