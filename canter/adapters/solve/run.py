"""The proving run behind `canter solve --nodes`: the start, then the positions a few
plies in, each given to the prover (canter/engine/search/solve/dfpn.py) with a node budget.

At the start and after one move both sides are tried ("can the side to move win?" and
"can the side that just moved win?"); deeper, only the side to move (the move before may
have been a mistake). A position is expanded further only if neither side was proved to
win there. One prover per attacker keeps its table across positions, so what was proved
for one helps the next.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from canter.engine import Position, format_move, parse_move
from canter.engine.search.solve.dfpn import Prover, solve_rules
from canter.engine.search.solve.proof import Proof, extract, position_key


@dataclass
class Attempt:
    line: tuple[str, ...]  # the moves from the start, official notation
    attacker: str  # seat name
    proved: bool | None  # True proved; False no win found (not a proof); None budget out
    nodes: int
    seconds: float
    plies: int | None  # the proof's height when proved
    table: int  # entries in that attacker's table afterwards


def run(game: str, budgets: tuple[int, int, int], plies: int,
        on_attempt: Callable[[Attempt], None], seconds: float = 3600.0,
        proof: Proof | None = None) -> Proof:
    """Try the start and every position up to `plies` plies in; the proofs found.
    `budgets`: nodes per attacker at the start, after one ply, after two or more. The
    proofs are merged into `proof` as each is found, so a run cut short (Ctrl-C) leaves
    what it proved there, every claim whole."""
    start = Position.start(game)
    pos = Position.start(game, solve_rules(start.rules))
    provers = [Prover() for _ in range(pos.variant.nseats)]
    names = [s.name for s in pos.variant.seats]
    if proof is None:
        proof = Proof()
    level: list[tuple[str, ...]] = [()]
    seen: set[str] = set()
    for depth in range(plies + 1):
        nxt: list[tuple[str, ...]] = []
        for line in level:
            board = _play(pos, line)
            key = position_key(board)
            if key in seen:
                continue
            seen.add(key)
            attackers = [board.turn] if depth >= 2 else [board.turn, 1 - board.turn]
            decided = False
            for seat in attackers:
                prover = provers[seat]
                before = prover.stats.nodes
                t0 = time.monotonic()
                result = prover.prove(board, seat, nodes=budgets[min(depth, 2)],
                                      seconds=seconds)
                height = None
                if result:
                    found = extract(prover, board)
                    proof.merge(found)
                    height = found.claims[key][1]
                    decided = True
                on_attempt(Attempt(line, names[seat], result, prover.stats.nodes - before,
                                   time.monotonic() - t0, height, len(prover.table)))
                if decided:
                    break
            if not decided and depth < plies:
                for move in board.legal_moves():
                    nxt.append((*line, format_move(board.variant, move)))
        level = nxt
    return proof


def _play(pos: Position, line: tuple[str, ...]) -> Position:
    board = pos.copy()
    for text in line:
        board.push(parse_move(board, text))
    # The prover's table is keyed without history: start each root without one.
    return Position.from_string(board.to_string(), board.rules)
