"""Best-Reply Search for three seats (Schadd & Winands, 2011).

The root seat's moves alternate with *one* move of the strongest reply among all the
opponents' moves: at a MIN layer each opponent's legal moves are generated (with its own
duty to capture) and merged, the chosen opponent moves, and the other one is skipped. The
tree is thus as deep for the root seat as a two-seat tree, at the price of positions that
cannot occur in the game (a skipped turn). Leaves are resolved by the paranoid quiescence
search with the real turn order, and the score is always the root seat's point of view.

Turns are forced by changing `pos.turn` together with its hash key; `pop` restores both,
and each node puts back the turn it found before returning.

BRS+ (Esser et al., 2013; `plus=True`) keeps the real turn order instead: the opponent
that does not give the searched reply still moves, playing its *plausible* move, the first of
`common.likeliest` (a castle entry, else the capture taking the most, else the longest
advance towards its target castle). Every position in the tree can then occur in the game, and an
opponent's threat is not lost by skipping its turn.
"""

from __future__ import annotations

from canter.engine.rules import movegen
from canter.engine.search.common import (
    INF,
    MAX_NODE_SALT,
    MIN_NODE_SALT,
    NO_CUTOFF,
    WIN,
    WIN_BOUND,
    first_item,
    likeliest,
    order_key,
)
from canter.engine.search.tt import bound_of, relative


def _set_turn(pos, seat: int) -> None:
    if pos.turn != seat:
        keys = pos._keys.turn
        pos.hash ^= keys[pos.turn] ^ keys[seat]
        pos.turn = seat


class BestReply:
    def __init__(self, search, plus: bool = False) -> None:
        self.s = search
        n = search.nseats
        root = search.root
        self.opponents = [(root + i) % n for i in range(1, n)]
        self.plus = plus

    def root_child(self, line, depth: int, alpha: int, beta: int) -> int:
        s = self.s
        pos = s.pos
        pos.push(line.move)
        hc = pos.hash
        # (Counted as the two-seat and max-n roots count their children: a return to this
        # position below is its second occurrence.)
        s.rep[hc] = s.rep.get(hc, 0) + 1
        try:
            return -self.node(depth - 1, -beta, -alpha, 1, False, True)
        finally:
            s.rep[hc] -= 1
            pos.pop()

    def _moves(self, pos, is_max: bool) -> tuple[list, int]:
        """The layer's (seat, move, None) choices, and how many legal moves they stand for
        (the opponents' are pruned to their likeliest, `Search.likely`)."""
        if is_max:
            own = [(self.s.root, m, None) for m in movegen.generate(pos, self.s.root)]
            return own, len(own)
        out = []
        legal = 0
        likely = self.s.likely
        for o in self.opponents:
            if o not in pos.eliminated and pos.occ[o]:
                replies = movegen.generate(pos, o)
                legal += len(replies)
                out += [(o, m, None) for m in likely(pos, o, replies)]
        return out, legal

    def _order(self, pos, moves: list, tt_move, ply: int) -> list:
        """Order (seat, move, lead) choices: table move, castle entries, captures,
        killers, history."""
        s = self.s
        target_bits = pos.variant.target_bits
        kn = 0
        for bits in pos.kn:
            kn |= bits
        k1, k2 = s.killers[ply]
        hist = s.history
        keyed = [(order_key(item[1], item[0], target_bits[item[0]], kn, tt_move, k1, k2, hist),
                  item) for item in moves]
        keyed.sort(key=first_item, reverse=True)
        return [sm for _, sm in keyed]

    def _plausible(self, pos, moves: list):
        """The move an opponent that is not searched is assumed to play (BRS+): its
        likeliest one."""
        seat = pos.turn
        return likeliest(moves, 1, pos.variant.target_bits[seat], self.s.ev.target_dist[seat])[0]

    def _choices_plus(self, pos) -> tuple[list, int]:
        """BRS+ opponents' layer: (seat, reply, move played before the reply or None), and
        how many legal replies they stand for. The first opponent in turn order replies, or
        plays its plausible move and lets the second reply."""
        root = self.s.root
        likely = self.s.likely
        own = movegen.generate(pos)
        choices = [(pos.turn, m, None) for m in likely(pos, pos.turn, own)]
        legal = len(own)
        if own:
            lead = self._plausible(pos, own)
            pos.push(lead)
            if pos._ended is None and pos.turn != root:
                replies = movegen.generate(pos)
                legal += len(replies)
                choices += [(pos.turn, m, lead) for m in likely(pos, pos.turn, replies)]
            pos.pop()
        return choices, legal

    def _play(self, seat: int, m, lead, is_max: bool) -> list:
        """Make one choice of a layer; returns the moves pushed (popped by the caller)."""
        pos = self.s.pos
        if not self.plus or is_max:
            _set_turn(pos, seat)
            pos.push(m)
            return [m]
        line = [m]
        if lead is not None:
            pos.push(lead)
            line = [lead, m]
        pos.push(m)
        if lead is None and pos.turn != self.s.root and pos._ended is None:
            # The opponent after the replying one still moves: its plausible move.
            replies = movegen.generate(pos)
            if replies:
                follow = self._plausible(pos, replies)
                pos.push(follow)
                line.append(follow)
        return line

    def node(self, depth: int, alpha: int, beta: int, ply: int, is_max: bool,
             pv_node: bool) -> int:
        s = self.s
        pos = s.pos
        s._count_node()
        pv_table = s.pv
        pv_table[ply] = []
        if ply > s.seldepth:
            s.seldepth = ply
        side = 1 if is_max else -1
        ended = pos._ended
        if ended is not None:
            if ended.winner is None:
                return 0
            return (WIN - ply if ended.winner == s.root else -(WIN - ply)) * side
        if s.root in pos.eliminated:
            return -(WIN - ply) * side
        h = pos.hash
        if s.rep_on and s.rep.get(h, 0) > 1:
            return 0
        if s.quiet_limit and pos.quiet >= s.quiet_limit:
            return 0
        if depth <= 0 or ply >= 90:
            if s._sign(pos.turn) == side:
                return s._quiesce(alpha, beta, ply, 0)
            return -s._quiesce(-beta, -alpha, ply, 0)
        key = h ^ s.salt ^ (MAX_NODE_SALT if is_max else MIN_NODE_SALT)
        v, tt_move = s.tt.lookup(key, NO_CUTOFF if pv_node else depth, alpha, beta, ply,
                                 WIN_BOUND)
        if v is not None:
            return v
        entry_turn = pos.turn
        if not self.plus or is_max:
            moves, legal = self._moves(pos, is_max)
        elif entry_turn != s.root:
            moves, legal = self._choices_plus(pos)
        else:  # no choice when both opponents had to pass
            moves, legal = [], 0
        if not moves:
            # This side cannot move: the other layer moves again.
            return -self.node(depth - 1, -beta, -alpha, ply + 1, not is_max, pv_node)
        table_depth = depth  # (as in the two-sided search: the depth asked for)
        if legal == 1 and s.extend and ply < 2 * s.depth_now + 4:
            depth += 1
            if s.store_extended:
                table_depth = depth
        moves = self._order(pos, moves, tt_move, ply)
        rep = s.rep
        alpha0 = alpha
        best = -INF
        best_move = None
        first = True
        for seat, m, lead in moves:
            line = self._play(seat, m, lead, is_max)
            hc = pos.hash
            rep[hc] = rep.get(hc, 0) + 1
            if first:
                score = -self.node(depth - 1, -beta, -alpha, ply + 1, not is_max, pv_node)
            else:
                score = -self.node(depth - 1, -alpha - 1, -alpha, ply + 1, not is_max, False)
                if alpha < score < beta:
                    score = -self.node(depth - 1, -beta, -alpha, ply + 1, not is_max, True)
            rep[hc] -= 1
            for _ in line:
                pos.pop()
            first = False
            if score > best:
                best = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if pv_node:
                        pv_table[ply] = line + pv_table[ply + 1]
                    if score >= beta:
                        if not m.capture_bits:
                            s._reward(seat, m, depth, ply)
                        break
        _set_turn(pos, entry_turn)
        s.tt.store(key, table_depth, bound_of(best, alpha0, beta),
                   relative(best, WIN_BOUND, ply), best_move._key if best_move else None)
        return best
