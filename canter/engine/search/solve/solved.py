"""Playing from proofs: the shipped proof files (`proofs/<game>.txt.gz`, made by
`canter solve <game> --nodes ... --write ...`, checked by `canter solve <game> --check`)
and what they say about a position.

In a position where the proof gives the side to move a win, the move is the proof's, which
is the one with the shortest proof the prover found. In a position whose every move leads
into the proof (the side to move has lost), the move is the one whose proof is longest.
A proof holds with both draw rules off; it is used under the game's rules as long as
neither draw rule can interfere: the quiet counter must leave room for the proof's longest
line (`plies`), and a move is not taken if it would itself end the game in a draw (a
repetition made possible by the game's earlier history).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, fields
from functools import cache
from importlib import resources

from canter.engine.rules.move import Move
from canter.engine.rules.notation import parse_move
from canter.engine.rules.position import Position
from canter.engine.search.solve.proof import Proof, parse_proof, position_key, read_bytes

PROOFS_DIR = "proofs"
# Rules options a proof depends on: all but the two draw rules, which it does without.
DRAW_RULES = ("repetition", "quiet_limit")


@dataclass(frozen=True)
class Verdict:
    winner: int  # seat
    plies: int  # the proof's longest line from here, in plies
    move: Move  # the move to play here (for the winner: shortest proof; loser: longest)

    def score_win(self, turn: int) -> int:
        """For the side to move, in its own moves: +N wins in N, -N loses in N."""
        own = (self.plies + 1) // 2
        return own if self.winner == turn else -own


class Solved:
    """A proof, ready to be asked about positions."""

    def __init__(self, proof: Proof) -> None:
        self.proof = proof

    def applies(self, pos: Position, plies: int) -> bool:
        """Do the game's rules let the proof's `plies` run their course from `pos`?"""
        rules, base = pos.rules.as_played_in(pos.variant), pos.variant.default_rules
        for f in fields(rules):
            if f.name not in DRAW_RULES and getattr(rules, f.name) != getattr(base, f.name):
                return False
        limit = rules.quiet_limit
        return not limit or pos.quiet + plies <= limit

    def winning(self, pos: Position) -> tuple[Move, int] | None:
        """(move, plies) if the proof has a move for the side to move here."""
        entry = self.proof.moves.get(position_key(pos))
        if entry is None:
            return None
        text, plies = entry
        try:
            return parse_move(pos, text), plies
        except ValueError:
            return None  # a damaged file: the searcher plays on its own

    def verdict(self, pos: Position) -> Verdict | None:
        """What the proof says about `pos` for the side to move, or None."""
        if pos.variant.nseats != 2 or pos.outcome() is not None:
            return None
        found = self.winning(pos)
        if found is not None:
            move, plies = found
            if self.applies(pos, plies) and not self._draws(pos, move):
                return Verdict(pos.turn, plies, move)
            return None
        # Lost if every move is answered in the proof (or loses at once).
        other = 1 - pos.turn
        longest, best = -1, None
        for move in pos.legal_moves():
            pos.push(move)
            try:
                out = pos.outcome()
                if out is not None:
                    if out.winner != other:
                        return None
                    plies = 0
                else:
                    found = self.winning(pos)
                    if found is None:
                        return None
                    plies = found[1]
            finally:
                pos.pop()
            if plies > longest:
                longest, best = plies, move
        if best is None or not self.applies(pos, longest + 1):
            return None
        return Verdict(other, longest + 1, best)

    def losing_moves(self, pos: Position) -> list[Move]:
        """The moves of `pos` after which the proof gives the other side a win."""
        if pos.variant.nseats != 2 or pos.outcome() is not None:
            return []
        lost = []
        for move in pos.legal_moves():
            pos.push(move)
            try:
                found = self.winning(pos) if pos.outcome() is None else None
                if found is not None and self.applies(pos, found[1]) \
                        and not self._draws(pos, found[0]):
                    lost.append(move)
            finally:
                pos.pop()
        return lost

    @staticmethod
    def _draws(pos: Position, move: Move) -> bool:
        pos.push(move)
        try:
            out = pos.outcome()
            return out is not None and out.winner is None
        finally:
            pos.pop()

    def line(self, pos: Position, limit: int = 400) -> list[Move]:
        """The principal line from `pos`: the proof's moves for the winner, the longest
        resistance for the loser, to the end of the game."""
        pos = pos.copy()
        out: list[Move] = []
        while len(out) < limit:
            verdict = self.verdict(pos)
            if verdict is None:
                break
            out.append(verdict.move)
            pos.push(verdict.move)
        return out


def shipped_proof(variant_name: str) -> Solved | None:
    """The proof that comes with canter for a game, or None. Read once per process; a
    damaged one (a broken install) is a ValueError each time it is asked for."""
    got = _shipped(variant_name)
    if isinstance(got, str):
        raise ValueError(got)
    return got


@cache
def _shipped(variant_name: str) -> Solved | str | None:
    """The shipped proof, None, or what is wrong with it (kept, so it is read once)."""
    path = resources.files(__package__).joinpath(PROOFS_DIR, f"{variant_name}.txt.gz")
    if not path.is_file():
        return None
    try:
        return Solved(parse_proof(read_bytes(path.read_bytes())))
    except (ValueError, OSError, EOFError, zlib.error) as exc:  # (UnicodeError: a ValueError)
        return f"the shipped proof of {variant_name} is damaged: {type(exc).__name__}: {exc}"
