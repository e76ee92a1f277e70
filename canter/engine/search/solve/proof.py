"""A proof taken out of the prover's table, and its file format.

A proof that `winner` wins from a root is a set of positions where `winner` moves, each
with the one move it plays there, such that every line from the root ends in a win by the
rules: at the winner's positions the move given, at the other side's positions every legal
move. Only the winner's positions are written; the verifier (`canter.adapters.solve.verify`,
which shares no code with this module or the prover) walks every line again from the roots.

The file, one item a line (`#` lines are comments):

    claim <key> <winner> <plies>         a root: <winner> wins from <key> within <plies>
    <key> <move> <plies>                 the winner's move here; the game ends within <plies>

`<key>` is the position string without its two counters (six fields, see book.py); the
move is in official notation; `<plies>` is the height of the proof below that position
(the longest line, in plies, to the end of the game when the loser plays longest).
"""

from __future__ import annotations

import gzip
import zlib
from dataclasses import dataclass, field

from canter.engine.rules.notation import format_move
from canter.engine.rules.position import Position
from canter.engine.rules.variant import get_variant
from canter.engine.search.solve.dfpn import Prover, winning_at_once

KEY_FIELDS = 6
HEADER = "# canter proof 1"


def position_key(pos: Position) -> str:
    return " ".join(pos.to_string().split()[:KEY_FIELDS])


@dataclass
class Proof:
    """Claims (root key -> (winner seat name, plies)) and the winner's moves
    (key -> (move text, plies))."""

    claims: dict[str, tuple[str, int]] = field(default_factory=dict)
    moves: dict[str, tuple[str, int]] = field(default_factory=dict)

    def merge(self, other: Proof) -> None:
        # The moves first, the claims they prove last: a merge cut short (Ctrl-C in a
        # proving run) never leaves a claim without its moves.
        for key, value in other.moves.items():
            mine = self.moves.get(key)
            if mine is None or value[1] < mine[1]:
                self.moves[key] = value
        self.claims.update(other.claims)


class ExtractError(RuntimeError):
    """The table does not hold a complete proof from this root (a bug if it was proved)."""



def extract(prover: Prover, pos: Position) -> Proof:
    """The proof of the position `prover` has proved (its attacker wins). At each of the
    attacker's positions the move kept is the one with the shortest proof among those
    proved before the position itself (so no line of the proof comes back to a position:
    see dfpn.py on the serial numbers)."""
    table = prover.table
    attacker = prover.attacker
    root = table.get(pos.hash)
    if root is None or root.pn != 0:
        raise ExtractError(f"not proved: {pos}")
    winner = pos.variant.seats[attacker].name
    proof = Proof()
    done: set[int] = set()
    pos = pos.copy()

    def walk(depth: int) -> None:
        key = pos.hash
        if key in done:
            return
        done.add(key)
        moves = pos.legal_moves()
        if not moves:
            out = pos.outcome()
            if out is None or out.winner != attacker:
                raise ExtractError(f"a line of the proof ends without a win: {pos}")
            return
        entry = table.get(key)
        if entry is None or entry.pn != 0:
            raise ExtractError(f"unproved position inside the proof: {pos}")
        if pos.turn == attacker:
            move = winning_at_once(pos, moves)
            if move is not None:
                proof.moves[position_key(pos)] = (format_move(pos.variant, move), 1)
                return
            best, best_height = None, None
            for m in moves:
                pos.push(m)
                e = table.get(pos.hash)
                pos.pop()
                if e is not None and e.pn == 0 and e.seq < entry.seq and (
                        best is None or e.height < best_height):
                    best, best_height = m, e.height
            if best is None:
                raise ExtractError(f"no older proved move at {pos}")
            proof.moves[position_key(pos)] = (format_move(pos.variant, best),
                                              best_height + 1)
            moves = [best]
        for m in moves:
            pos.push(m)
            try:
                walk(depth + 1)
            finally:
                pos.pop()

    walk(0)
    proof.claims[position_key(pos)] = (winner, root.height)
    return proof


def format_proof(proof: Proof, comments: list[str] = ()) -> str:
    lines = [HEADER, *(f"# {c}" for c in comments)]
    for key, (winner, plies) in proof.claims.items():
        lines.append(f"claim {key} {winner} {plies}")
    for key in sorted(proof.moves):
        move, plies = proof.moves[key]
        lines.append(f"{key} {move} {plies}")
    return "\n".join(lines) + "\n"


def parse_proof(text: str) -> Proof:
    """The prover's own reading of a proof file (the verifier has its own)."""
    proof = Proof()
    for number, raw in enumerate(text.splitlines(), start=1):
        parts = raw.split()
        if not parts or parts[0].startswith("#"):
            continue
        claim = parts[0] == "claim"
        if len(parts) != KEY_FIELDS + (3 if claim else 2):
            raise ValueError(f"proof line {number}: not a claim or a move line")
        plies = parts[-1]
        if not plies.isdecimal() or len(plies) > 6:  # (no proof line is a million plies)
            raise ValueError(f"proof line {number}: the plies '{plies[:20]}' are not a whole "
                             "number from 0 to 999999")
        if claim:
            winner = parts[-2]
            try:
                seats = [seat.name for seat in get_variant(parts[1]).seats]
            except KeyError:
                raise ValueError(f"proof line {number}: no game '{parts[1][:20]}'") from None
            if winner not in seats:
                raise ValueError(f"proof line {number}: the winner '{winner[:20]}' is no seat "
                                 f"of {parts[1]} ({', '.join(seats)})")
            proof.claims[" ".join(parts[1:1 + KEY_FIELDS])] = (winner, int(plies))
        else:
            proof.moves[" ".join(parts[:KEY_FIELDS])] = (parts[-2], int(plies))
    return proof


def read_bytes(data: bytes, limit: int | None = None) -> str:
    """The text of a proof file, gzip-compressed or not. With `limit`, ValueError ("more
    than N MB") when the text would be longer: a small file may unpack to any size."""
    if data[:2] == b"\x1f\x8b":
        if limit is None:
            data = gzip.decompress(data)
        else:
            # Member by member: gzip files joined end to end (`cat a.gz b.gz`) are one
            # file to gzip's tools, and the limit bounds the whole text.
            parts: list[bytes] = []
            left, rest = limit + 1, data
            while True:
                unpack = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
                part = unpack.decompress(rest, left)
                parts.append(part)
                left -= len(part)
                if left <= 0:
                    raise ValueError(f"more than {limit >> 20} MB unpacked")
                if not unpack.eof:
                    raise EOFError("the compressed data is cut short")
                rest = unpack.unused_data
                if not rest.strip(b"\0"):  # (padding after the last member is allowed)
                    break
                if rest[:2] != b"\x1f\x8b":
                    raise EOFError("data after the compressed text that is not gzip")
            data = b"".join(parts)
    return data.decode("utf-8")
