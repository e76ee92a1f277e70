"""Depth-first proof-number search (df-pn, Nagai 2002) for two-seat games of the family.

The question is always "can `attacker` force a win from here?". A node where the attacker
moves is an OR node, one where the defender moves an AND node. Proof and disproof numbers
live in a transposition table keyed by the position hash (cells, seat to move, exit
duties), with no history: the same cells are the same node whatever the path.

Draws. The search plays with both draw rules off (third repetition, quiet limit): a win
is a win only if it reaches an ending of the rules (castle entry, capture of every piece,
a side with no move) in a finite number of moves. A node that repeats one on the current
path counts as a failure for the attacker on this path (a cycle never wins).

The Graph History Interaction (GHI). Such a path-dependent failure may flow into table
entries that are then reused on other paths; that can only make the search miss a win,
never invent one, because a node is proved only from children already proved, and every
proof rests on endings of the rules. Disproofs are therefore never reported as results:
only proofs are. Each proved node keeps the serial number of its proof; a child's proof
is used for a parent only if it is older, so a proof extracted from the table
(`proof.extract`) is acyclic: no line of it repeats a position, and it holds under every
repetition rule. (The quiet limit is checked on the extracted proof.)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace

from canter.engine.rules.position import Position
from canter.engine.rules.variant import Rules

INF = 1 << 40
# Both draw rules off: a proof must not rest on them (see the module text).
SOLVE_RULES = Rules(repetition="off", quiet_limit=0)


def solve_rules(rules: Rules) -> Rules:
    return replace(rules, repetition="off", quiet_limit=0)



def winning_at_once(pos: Position, moves: list):
    """A move of `moves` that ends the game in the mover's favour at once (entering the
    enemy castle, taking the last enemy piece), or None."""
    s = pos.turn
    target = pos.variant.target_bits[s]
    enemy = pos.occ[1 - s]
    for m in moves:
        if (1 << m.end) & target or (m.capture_bits and m.capture_bits == enemy):
            return m
    return None

class Budget(Exception):
    """The node or time budget ran out (the table keeps what was found)."""


@dataclass(slots=True)
class Entry:
    pn: int
    dn: int
    seq: int = 0  # serial number of the proof (pn == 0) or disproof (dn == 0)
    height: int = 0  # plies to the ending along the proof found (pn == 0 only)


@dataclass
class Stats:
    nodes: int = 0  # expansions (MID calls that generated moves)
    seconds: float = 0.0
    proved: int = 0  # table entries with a proof


class Prover:
    """One prover, one table; `prove` may be called for many roots (the table is shared,
    so proofs found for one root help the next)."""

    def __init__(self) -> None:
        self.table: dict[int, Entry] = {}
        self.stats = Stats()
        self._seq = 0
        self._path: set[int] = set()
        self.attacker = 0  # the seat whose win is asked about
        self._deadline = 0.0
        self._node_limit = 0

    # ---- the search ---------------------------------------------------------------
    def prove(self, pos: Position, attacker: int, nodes: int = 1_000_000,
              seconds: float = 60.0) -> bool | None:
        """True: proved that `attacker` wins; False: the search found no win (not a proof
        of anything, see GHI above); None: the budget ran out first."""
        if pos.variant.nseats != 2:
            raise ValueError("proof-number search is for two-seat games")
        if pos.rules.repetition != "off" or pos.rules.quiet_limit:
            raise ValueError("prove with both draw rules off (dfpn.solve_rules)")
        if self.attacker != attacker and self.table:
            self.table.clear()  # entries answer one attacker's question
        self.attacker = attacker
        started = time.monotonic()
        self._deadline = started + seconds
        self._node_limit = self.stats.nodes + nodes
        self._path = set()
        try:
            self._mid(pos, INF - 1, INF - 1)
        except (Budget, RecursionError):
            pass  # a line deeper than Python's stack counts as a budget run out
        finally:
            self.stats.seconds += time.monotonic() - started
        entry = self.table.get(pos.hash)
        if entry is None or (entry.pn and entry.dn):
            return None
        return entry.pn == 0

    def _terminal(self, pos: Position, moves: list) -> Entry | None:
        """The node's value if the game is over here, else None. `moves` are its legal
        moves (empty if the game ended or the side to move is stuck)."""
        if moves:
            return None
        out = pos.outcome()
        if out is None:  # cannot happen with the draw rules off: no move means an ending
            raise AssertionError(f"no move and no ending in {pos}")
        self._seq += 1
        if out.winner == self.attacker:
            return Entry(0, INF, self._seq, 0)
        return Entry(INF, 0, self._seq, 0)

    def _mid(self, pos: Position, thpn: int, thdn: int) -> None:
        stats = self.stats
        # Checked before the count: a budget of N expands N nodes, and says N when spent.
        if stats.nodes >= self._node_limit or (
                not stats.nodes & 1023 and time.monotonic() > self._deadline):
            raise Budget
        stats.nodes += 1
        key = pos.hash
        table = self.table
        old = table.get(key)
        if old is not None and (old.pn == 0 or old.dn == 0):
            return
        moves = pos.legal_moves()
        entry = self._terminal(pos, moves)
        or_node = pos.turn == self.attacker
        if entry is None and winning_at_once(pos, moves) is not None:
            self._seq += 1
            entry = Entry(0, INF, self._seq, 1) if or_node else Entry(INF, 0, self._seq, 0)
        if entry is not None:
            table[key] = entry
            return
        # The children: their hashes (one make/unmake each), looked up in the loop below.
        kids = []
        for m in moves:
            pos.push(m)
            kids.append((pos.hash, m))
            pos.pop()
        path = self._path
        path.add(key)
        # "phi" is what the node to move minimises over its children (pn at an OR node,
        # dn at an AND node), "delta" what it sums (dn at OR, pn at AND).
        th_phi, th_delta = (thpn, thdn) if or_node else (thdn, thpn)
        try:
            while True:
                best = -1
                phi = second = INF
                delta = best_delta = 0
                for i, (h, _m) in enumerate(kids):
                    if h in path:  # a cycle: never a win for the attacker
                        cpn, cdn = INF, 0
                    else:
                        e = table.get(h)
                        if e is None:
                            cpn = cdn = 1
                        else:
                            cpn, cdn = e.pn, e.dn
                    cphi, cdelta = (cpn, cdn) if or_node else (cdn, cpn)
                    delta = min(INF, delta + cdelta)
                    if cphi < phi:
                        second, phi, best, best_delta = phi, cphi, i, cdelta
                    elif cphi < second:
                        second = cphi
                if phi == 0 or delta == 0 or phi >= th_phi or delta >= th_delta:
                    break
                # 1+epsilon trick (Pawlewicz and Lew): stay longer in the best child.
                child_phi = min(th_phi, second + 1 + second // 4, INF - 1)
                child_delta = min(th_delta - delta + best_delta, INF - 1)
                pos.push(kids[best][1])
                try:
                    # The child's pn is what an OR parent minimises, its dn what an AND
                    # parent minimises.
                    if or_node:
                        self._mid(pos, child_phi, child_delta)
                    else:
                        self._mid(pos, child_delta, child_phi)
                finally:
                    pos.pop()
        finally:
            path.discard(key)
        pn, dn = (phi, delta) if or_node else (delta, phi)
        old = table.get(key)
        if pn == 0 or dn == 0:
            self._seq += 1
            height = 0
            if pn == 0:
                height = self._height(kids, or_node)
                stats.proved += 1
            table[key] = Entry(pn, dn, self._seq, height)
        elif old is None:
            table[key] = Entry(pn, dn)
        else:
            old.pn, old.dn = pn, dn

    def _height(self, kids: list, or_node: bool) -> int:
        table = self.table
        hs = []
        for h, _m in kids:
            e = table.get(h)
            if e is not None and e.pn == 0:
                hs.append(e.height)
        if not hs:
            return 1
        return 1 + (min(hs) if or_node else max(hs))

