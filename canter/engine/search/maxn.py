"""Max-n search for three seats (Luckhardt & Irani, 1986).

Every seat plays for itself: a node's value is a vector with one score per seat, and the
seat to move picks the child whose vector is best *for itself*. Paranoid search instead
has both opponents minimise the root seat's score together, which in Tri-Camelot means one
opponent offering a piece so that the other can take it, or blocking for the other's race:
moves a player with its own castle to reach rarely makes. Max-n is the model of opponents
that each want to win.

The leaves are `Evaluator.vector` (each seat's own score minus the mean of the others,
the three-seat `relative`). Each opponent's likeliest moves are searched (`Search.likely`,
the `Three Seat Opponent Moves` width), every move of the root seat. With no bound on the
sum of the vector's entries there is no pruning: the tree is searched whole to the depth,
then through the compulsory captures; at a quiet leaf, a seat that can enter its target
castle wins, and where another seat could enter next move the seat to move's replies are
searched first (at most `threat_ext` plies).

Between children equal for the seat to move, the one worse for the root seat is taken:
an opponent indifferent to a choice is read as paranoid search reads every opponent.
"""

from __future__ import annotations

from canter.engine.rules import movegen
from canter.engine.search.common import STATIC_CAP, WIN, to_grain


class MaxN:
    def __init__(self, search) -> None:
        self.s = search
        self.n = search.nseats
        # The root seat's own likeliest moves at its nodes below the root (switch
        # `maxn_width`; 0 = all of them), so that its next move fits in the time. The
        # root's own moves are listed by the root loop, which does not ask `likely`.
        width = search.options.get("maxn_width", 0)
        if width:
            search.seat_k[search.root] = width
        # _iterate asks again with a wider window for a move that beat the best; max-n
        # values do not depend on the window, so the last answer is kept.
        self._last: tuple | None = None

    def root_child(self, line, depth: int, alpha: int, beta: int) -> int:
        s = self.s
        key = (line.move._key, depth, s.depth_now)
        if self._last is not None and self._last[0] == key:
            s.pv[1] = list(self._last[2])
            return self._last[1]
        pos = s.pos
        pos.push(line.move)
        hc = pos.hash
        s.rep[hc] = s.rep.get(hc, 0) + 1
        try:
            value = self.node(depth - 1, 1, 0)[s.root]
        finally:
            s.rep[hc] -= 1
            pos.pop()
        self._last = (key, value, list(s.pv[1]))
        return value

    # ---- values ----------------------------------------------------------------------
    def _decided(self, ply: int) -> list[int] | None:
        """The vector of a finished game (or of a tree where the root seat is out)."""
        s = self.s
        pos = s.pos
        ended = pos._ended
        if ended is not None:
            if ended.winner is None:
                return [0] * self.n
            win = WIN - ply
            return [win if ended.wins_for(x) else -win for x in range(self.n)]
        if s.root in pos.eliminated:
            out = self._static()
            out[s.root] = -(WIN - ply)
            return out
        if s.rep_on and s.rep.get(pos.hash, 0) > 1:
            return [0] * self.n
        if s.quiet_limit and pos.quiet >= s.quiet_limit:
            return [0] * self.n
        return None

    def _static(self) -> list[int]:
        out = self.s.ev.vector(self.s.pos)
        grain = self.s.grain
        for i, v in enumerate(out):
            if grain:
                out[i] = v = to_grain(v, grain)
            if not -STATIC_CAP <= v <= STATIC_CAP:
                out[i] = STATIC_CAP if v > 0 else -STATIC_CAP
        return out

    def _mover_wins(self, seat: int, ply: int) -> list[int]:
        win = WIN - ply
        return [win if x == seat else -win for x in range(self.n)]

    # ---- the tree --------------------------------------------------------------------
    def node(self, depth: int, ply: int, qply: int) -> list[int]:
        s = self.s
        s._count_node()
        s.pv[ply] = []
        if ply > s.seldepth:
            s.seldepth = ply
        value = self._decided(ply)
        if value is not None:
            return value
        if depth <= 0 or ply >= 90:
            return self._leaf(ply, qply)
        pos = s.pos
        moves = movegen.generate(pos)
        if not moves:
            out = [0] * self.n
            out[pos.turn] = -(WIN - ply)
            return out
        if len(moves) == 1 and s.extend and ply < 2 * s.depth_now + 4:
            depth += 1
        return self._children(moves, depth - 1, ply, qply)

    def _children(self, moves: list, depth: int, ply: int, qply: int) -> list[int]:
        """The best vector for the seat to move over `moves` (an opponent's likeliest)."""
        s = self.s
        pos = s.pos
        seat = pos.turn
        root = s.root
        moves = s.likely(pos, seat, moves)
        rep = s.rep
        pv = s.pv
        best = None
        for m in moves:
            pos.push(m)
            hc = pos.hash
            rep[hc] = rep.get(hc, 0) + 1
            try:
                v = self.node(depth, ply + 1, qply)
            finally:
                rep[hc] -= 1
                pos.pop()
            if best is None or v[seat] > best[seat] or (v[seat] == best[seat]
                                                        and v[root] < best[root]):
                best = v
                pv[ply] = [m] + pv[ply + 1]
        return best

    def _leaf(self, ply: int, qply: int) -> list[int]:
        s = self.s
        pos = s.pos
        if movegen.must_capture(pos):
            if qply >= s.qdepth:
                return self._static()
            return self._children(movegen.generate(pos), 0, ply, qply + 1)
        if s._wins_now(pos):
            return self._mover_wins(pos.turn, ply + 1)
        if qply < s.threat_ext and s._threatened(pos, pos.turn):
            moves = movegen.generate(pos)
            if moves:
                return self._children(moves, 0, ply, qply + 1)
        return self._static()
