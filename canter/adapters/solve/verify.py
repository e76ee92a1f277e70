"""The independent check of a proof file: it replays every line with the rules library
alone, and shares no code with the prover (tests/test_layering.py forbids this module the
searcher, and it reads the file with its own parser).

For every claim `<winner> wins from <root>`: at each position of the proof where `winner`
moves, the file must give a move, and the rules must accept it; where the other side
moves, every legal move is followed; every line must end in a win for `winner` by the
rules' own `outcome()`; and no line may come back to a position it has passed (a proof
that needed a cycle would rest on the repetition rule). The check runs with both draw
rules off, and measures what the quiet limit would need: the longest run of plies without
a capture before a position where the game is not yet over (`max_quiet`). With a quiet
limit above that, and no repetition possible along a line, the proof holds under the
default rules as well.

The format is described in canter/engine/search/solve/proof.py:
`claim <key> <winner> <plies>` and `<key> <move> <plies>`, key = six position-string fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from canter.engine import Position, Rules, parse_move

KEY_FIELDS = 6
OFF = {"repetition": "off", "quiet_limit": 0}


class ProofRejected(ValueError):
    """The proof is wrong or incomplete; the message says where."""


@dataclass
class Claim:
    key: str
    winner: str
    plies: int


@dataclass
class Checked:
    claims: list[Claim] = field(default_factory=list)
    positions: int = 0  # distinct positions visited (both sides to move)
    winner_positions: int = 0  # of which the winner moves (lines of the file used)
    unused: int = 0  # move lines of the file no claim reached
    max_quiet: int = 0  # longest run of plies without capture before the game is over
    longest: int = 0  # longest line, plies, over every claim
    used: set[str] = field(default_factory=set)  # the keys of the move lines a claim reached


def read(text: str) -> tuple[list[Claim], dict[str, str]]:
    claims: list[Claim] = []
    moves: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        parts = raw.split()
        if not parts or parts[0].startswith("#"):
            continue
        if parts[0] == "claim":
            if len(parts) != KEY_FIELDS + 3 or not parts[-1].isdecimal():
                raise ProofRejected(f"line {number}: a claim is 'claim <key> <winner> "
                                    "<plies>'")
            claims.append(Claim(" ".join(parts[1:1 + KEY_FIELDS]), parts[-2], int(parts[-1])))
        else:
            if len(parts) != KEY_FIELDS + 2:
                raise ProofRejected(f"line {number}: a move line is '<key> <move> <plies>'")
            key = " ".join(parts[:KEY_FIELDS])
            if key in moves:
                raise ProofRejected(f"line {number}: a second move for one position")
            moves[key] = parts[-2]
    if not claims:
        raise ProofRejected("no claim in the file")
    return claims, moves


def _key(pos: Position) -> str:
    return " ".join(pos.to_string().split()[:KEY_FIELDS])


def verify(text: str) -> Checked:
    """Check every claim of a proof file; ProofRejected at the first fault."""
    claims, moves = read(text)
    result = Checked(claims=claims)
    # Per winner, per position: None while on the line being walked (a cycle if met
    # again), then (height, quiet): the longest line below in plies, and the longest run
    # of capture-free plies below that reaches a position where the game goes on. A
    # position checked as one side's win says nothing of the other side's claims.
    done_for: dict[int, dict[str, tuple[int, int] | None]] = {}
    used = result.used
    for claim in claims:
        try:
            root = Position.from_string(f"{claim.key} 0 0")
        except ValueError as exc:
            raise ProofRejected(f"claim {claim.key}: {exc}") from None
        root = Position.from_string(f"{claim.key} 0 0", Rules.for_variant(root.variant)
                                    .with_option("repetition", "off")
                                    .with_option("quiet_limit", 0))
        names = [s.name for s in root.variant.seats]
        if claim.winner not in names:
            raise ProofRejected(f"claim {claim.key}: no seat '{claim.winner}'")
        winner = names.index(claim.winner)
        height = _walk(root, winner, moves, done_for.setdefault(winner, {}), used, result)
        if height > claim.plies:
            raise ProofRejected(f"claim {claim.key}: a line lasts {height} plies, "
                                f"more than the {claim.plies} claimed")
        result.longest = max(result.longest, height)
    result.unused = len(set(moves) - used)
    return result


def _walk(root: Position, winner: int, moves: dict[str, str],
          done: dict[str, tuple[int, int] | None], used: set[str], result: Checked) -> int:
    """Depth-first over the proof without recursion: a stack of (key, moves left, best
    height so far, best quiet run so far)."""
    pos = root
    key = _key(pos)
    if key in done:
        value = done[key]
        if value is None:
            raise ProofRejected(f"a line comes back to {key}")
        return value[0]
    stack: list[list] = []

    def enter(key: str) -> tuple[int, int] | list:
        """A position's value if it ends the game, else a new stack frame."""
        result.positions += 1
        out = pos.outcome()
        if out is not None:
            if out.winner != winner:
                raise ProofRejected(f"a line ends in '{out.text()}' at {pos.to_string()}")
            return (0, -1)  # -1: a position where the game is over needs no quiet room
        if pos.turn == winner:
            text = moves.get(key)
            if text is None:
                raise ProofRejected(f"no move given for {key}")
            used.add(key)
            result.winner_positions += 1
            try:
                move = parse_move(pos, text)
            except ValueError as exc:
                raise ProofRejected(f"{key}: move {text}: {exc}") from None
            todo = [move]
        else:
            todo = list(pos.legal_moves())
        done[key] = None
        return [key, todo, 0, 0]

    first = enter(key)
    if isinstance(first, tuple):
        done[key] = first
        return 0
    stack.append(first)
    while stack:
        frame = stack[-1]
        if frame[1]:
            move = frame[1].pop()
            pos.push(move)
            child = _key(pos)
            value = done.get(child, False)
            if value is None:
                raise ProofRejected(f"a line comes back to {child}")
            if value is False:
                entered = enter(child)
                if isinstance(entered, list):
                    entered.append(move)
                    stack.append(entered)
                    continue
                done[child] = value = entered
            pos.pop()
            _fold(frame, move, value)
            continue
        stack.pop()
        value = (frame[2], frame[3])
        done[frame[0]] = value
        result.max_quiet = max(result.max_quiet, value[1])
        if stack:
            move = frame[4]
            pos.pop()
            _fold(stack[-1], move, value)
    return done[key][0]


def _fold(frame: list, move, value: tuple[int, int]) -> None:
    """Take a child's (height, quiet run) into its parent's frame."""
    height, quiet = value
    frame[2] = max(frame[2], height + 1)
    if move.capture_bits:
        run = 0
    else:
        run = quiet + 1 if quiet >= 0 else 0
    frame[3] = max(frame[3], run)
