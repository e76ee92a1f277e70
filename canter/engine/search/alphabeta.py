"""The search: iterative deepening alpha-beta over the rules library's positions.

Two seats: negamax alpha-beta. Three seats: the same code as *paranoid* search — the root
seat against a coalition of the others; a value is always from the point of view of the
side to move's team, and is negated only when the team to move changes — *Best-Reply
Search* (`brs.py`), or max-n, each seat for itself (`maxn.py`). Shared: a transposition
table keyed by the position hash, move ordering (castle entries, captures by material,
killers, history), a quiescence search over compulsory captures (no stand-pat while a
capture is compulsory), a single-reply extension, exact won/lost/drawn scores. Null-move
pruning (a switch, two seats only) passes only where a pass could stand in for a legal
move: never under a capture or exit duty.

Two sides (two seats, or two teams) have a selectivity behind switches, on in play in the
games of SELECTIVE_GAMES (Camelot, Chivalry and Cam, where it scored above the search
without it at 10+0.1) and off in the others (docs/search.md, "Selectivity"): principal
variation search, the table move first, root aspiration windows, root null windows as non-PV
nodes, reverse futility, futility and late-move pruning (never of captures, castle entries,
or offers that force the reply to capture), late move reductions (never of captures or
castle entries), a castle-entry threat extension, a multi-jump threat extension
(`jump_ext`), null-move pruning (`nullmove`), a quiescence that searches the mover's replies
to a multi-jump threat (`qthreat`), one that lets the mover at a quiet leaf make a Knight's
charge, which creates no duty and so is not a compulsory capture (`qcharge`). Four more are
on in play: the capture extension, at the last ply a choice between compulsory captures
costs no depth (`capext`; +69 Elo at 10+0.1; `capext_max` caps it along a line), in
Camelot quiet moves of equal history ordered by their advance (`order_adv`), in Camelot and
Chivalry late quiet root moves searched a ply shallower first (`root_lmr`), and in Camelot,
where the other side could already capture, the moves that leave it so are not counted as
offers (`fresh_offers`).
`duty_pat` (off) lets a quiescence node under a capture duty stand pat far above beta,
`grain` (off) rounds static scores to a multiple of its value, and `root_margin` (off)
searches a later root move again only when it beats the best so far by more than a margin.

Determinism: under depth and node limits nothing depends on the clock; node limits are
checked at every node.
"""

from __future__ import annotations

import functools
import math
import random
import re
import time
from dataclasses import replace

from canter.engine.rules import movegen
from canter.engine.rules.move import Move
from canter.engine.rules.position import Position
from canter.engine.rules.text import shorten
from canter.engine.search.brs import BestReply
from canter.engine.search.common import (
    BRS_PLUS_SALT,
    BRS_SALT,
    INF,
    NO_CUTOFF,
    OPPK_SALT,
    READ_SALT,
    ROOT_SALT,
    STATIC_CAP,
    WIN,
    WIN_BOUND,
    first_item,
    likeliest,
    order_captures,
    order_key,
    skips,
    to_grain,
)
from canter.engine.search.evaluate import Evaluator, weights_for
from canter.engine.search.limits import Limits, SearchInfo, SearchResult, StopFlag
from canter.engine.search.maxn import MaxN
from canter.engine.search.opponents import predictable_seats
from canter.engine.search.timeman import DEFAULT_MOVES_TO_GO, ITERATION_STOP, budgets
from canter.engine.search.tt import TranspositionTable, bound_of, relative

MAX_PLY = 96
MAX_DEPTH = 60
POLL_EVERY = 64  # nodes between looks at the clock and the stop flag
QDEPTH = 6  # capture plies the quiescence search follows before trusting the static score
# Three seats: quiet plies of the root seat searched at a leaf where an opponent can enter a
# castle next move (docs/search.md, "reading the opponents").
THREAT_PLIES = 2
# Two sides (Camelot, the family's two-seat games, team games): selectivity, all switched
# by `selective`. On by default in the games of SELECTIVE_GAMES, where the strength test at
# 10+0.1 kept it (docs/search.md, "The selectivity again, with the capture extension",
# "The selectivity in Chivalry", "The selectivity in Cam"); off in the others (Camette:
# flat over 1,000 games; Grand Cam: unmeasured).
SELECTIVE_GAMES = ("camelot", "chivalry", "cam")
# Margins are in evaluation units (a Man is 100); docs/search.md gives the measurements.
PRUNE_DEPTH = 3  # reverse futility and late-move pruning up to this remaining depth
RFP_MARGIN = 120  # per ply of remaining depth
FUTILITY = (0, 150, 300)  # by remaining depth (1, 2)
LMP_COUNT = (0, 10, 16, 26)  # quiet moves searched at remaining depth 1..3 before the rest
LMR_FROM = 3  # the first move index that may be reduced
LMR_DEPTH = 3  # the least remaining depth at which moves are reduced
ASPIRATION_DEPTH = 4  # root aspiration windows from this iteration
ASPIRATION_WINDOW = 40  # half-width around the previous iteration's score
LMR_DEEP_FROM = 10  # from this index (at depth >= 5) the reduction is two plies
# Quiet-move order by advance (switch `order_adv`): history keys below the killers' are
# capped here and shifted to make room for the steps gained towards the target castle.
ORDER_ADV_GAMES = ("camelot",)  # where it is on by default
# History malus (switch `hist_malus`): at a quiet cut-off, the quiet moves searched before
# the cutting one lose its bonus in the history.
HIST_MALUS = 0
# Late-move reductions at the root (switch `root_lmr`; two seats, no teams): quiet root
# moves from this index on (the order of the last iteration's scores) are tested a ply
# shallower first. On by default in the games of ROOT_LMR_GAMES.
ROOT_LMR_GAMES = ("camelot", "chivalry")
ROOT_LMR_FROM = 6
# A margin at the root (switch `root_margin=N`): a later root move's null window is set N
# points above the best score so far, so a move better by N or less is not searched again.
# Off: at 4, 12 % fewer nodes to depth 5 in game positions but 0.03 of a ply in play and
# -0.8 +/- 23.6 over 836 games at 10+0.1 (docs/search.md, "A margin at the root").
ROOT_MARGIN = 0
# Fresh offers (switch `fresh_offers`; two seats, no teams): a quiet move near the leaves
# is kept from pruning as an offer only if the other side could not capture before it.
# On by default in the games of FRESH_OFFERS_GAMES.
FRESH_OFFERS_GAMES = ("camelot",)
# Stand pat under the duty to capture (switch `duty_pat=N`; two seats, no teams): in the
# quiescence search a side bound to capture whose static score is N or more above beta
# takes that score without searching its captures. A capture mostly gains for the side
# that makes it, so a side already that far ahead nearly always stays ahead. Off: with
# N=100, 45 % fewer nodes and 0.15 of a ply deeper in play, but -16.4 +/- 26.6 over 656
# games at 10+0.1 (docs/search.md, "Standing pat under the capture duty").
DUTY_PAT = 0
KILLER_KEY = (1 << 29) - 1  # order_key's least killer key (the second killer)
HISTORY_CAP = (1 << 24) - 1
# `_order` packs a move's index under its key: lists up to ORDER_SLOTS - 1 moves.
ORDER_SLOTS = 1 << 12
ORDER_MASK = ORDER_SLOTS - 1
# Logarithmic reductions (switch `lmrlog=N`): round(ln(depth) * ln(index) / N) plies, at
# least one, from remaining depth LMR_LOG_DEPTH; the reduced search may fall into
# quiescence.
LMR_LOG_DEPTH = 2


@functools.cache
def lmr_log_table(n: int) -> list[list[int]]:
    """[depth][move index] -> plies of the `lmrlog=n` reduction (built at first use: the
    engine's start pays nothing for a switch that is off)."""
    return [[max(1, round(math.log(d) * math.log(i) / n)) if d > 1 and i > 1 else 1
             for i in range(128)] for d in range(MAX_DEPTH + 1)]

# Null-move pruning (switch `nullmove`; two seats only): from this remaining depth, with
# this reduction (one more from NULL_DEEP), and only while the side to move keeps this many
# pieces (few pieces is where a free move is most likely not worth having).
NULLMOVE = 0
NULL_DEPTH = 2
NULL_R = 2
NULL_DEEP = 6
NULL_MIN_PIECES = 5
# Quiescence against threats (switch `qthreat`; two seats only): at a quiet leaf where the
# side not to move could take this many pieces in one move if it moved now, the side to
# move's replies are searched instead of its static score (once per line). Off: it cost a
# tenth of a ply in play and scored -32.7 +/- 28.1 over 596 games at 10+0.1.
QTHREAT = 0
QTHREAT_TAKES = 2
QTHREAT_MARGIN = 50  # what a quiet reply may gain over the static score, at most
# Optional charges in the quiescence (switch `qcharge`; two sides): at a quiet leaf the side
# to move may stand pat or make a Knight's charge, as a chess quiescence takes captures. A
# charge creates no duty, so without this a leaf where a Knight could take seven pieces
# scored as quiet. Only charges that take QCHARGE_TAKES pieces or more: with single captures
# too, the five Camelot bench positions took 68,856 nodes to depth 3 against 43,339 without
# the switch; with two or more, 38,318 (the big tactics seen, the tree cut sooner). Off:
# undecided at 10+0.1 (+2.5 +/- 33.5 over 415 games; docs/search.md).
QCHARGE = 0
QCHARGE_TAKES = 2
# The evaluation's grain (switch `grain=N`): static scores rounded to multiples of N points
# (a Man is 100). In a level position many moves score within a few points of each other,
# and a null window at the best score so far is beaten by a point, then searched again: at
# 4, the five Camelot bench positions took 199,246 nodes to depth 5 against 305,125, at 8
# 147,988 (the same best moves at all five). Off: at 8, 0.10 of a ply deeper in play and
# -38.3 +/- 51.2 over 182 games at 10+0.1 (docs/search.md, "The evaluation's grain").
GRAIN = 0
# A forced node (one legal move) is searched a ply deeper (the single-reply extension) and
# stored in the table at the depth it was asked for: stored at the raised depth, as until
# 2026-12-01 (switch `store_extended=1`), it answered a probe one ply deeper, whose search
# would have extended once more, and lost that ply of a forced line (a Camette position
# scored -11 for a move that loses in four; docs/search.md, "Forced nodes in the table").
STORE_EXTENDED = 0
# Internal iterative reduction (switch `iir=N`): a node of remaining depth N or more that
# the table holds no move for is searched a ply shallower. Without a table move its order
# is a guess, and the next iteration (or a re-search) comes back with a move to try first.
# Off: 42 % fewer nodes to depth 5, but flat in play at 10+0.1 (-6.7 +/- 19.7 over 1,192
# games, docs/search.md, "Internal iterative reduction at 10+0.1").
IIR = 0


# The switches an engine may be given from outside (the `Search Switches` option,
# docs/protocol.md), so that the strength test can play a build against itself with one
# feature turned on or off: name -> the most it takes (1: a switch; qdepth: plies).
SWITCHES = {
    "selective": 1, "lmr": 1, "pvs": 1, "prune": 1, "aspiration": 1, "rootnull": 1,
    "ttmove": 1, "entry_ext": 1, "jump_ext": 1, "nullmove": 1, "qthreat": 1, "qcharge": 1,
    "extend": 1, "killers": 1, "history": 1, "qlikely": 1, "threat_ext": 8, "qdepth": 32,
    "capext": 1, "capext_max": 8, "maxn_width": 64, "lmrlog": 3, "lmr_threat": 1,
    "order_adv": 1, "hist_malus": 1, "root_lmr": 1, "fresh_offers": 1, "duty_pat": 1000,
    "grain": 64, "root_margin": 64, "store_extended": 1, "iir": 16,
    "togo": 100, "iterstop": 100,  # time use (timeman.py); 0 is the default
}


def switch_changes(text: str) -> dict[str, int]:
    """`name=value` pairs (commas or spaces between them; names in any case, spaces around
    `=` allowed) as search options; ValueError names the first bad entry."""
    out: dict[str, int] = {}
    text = re.sub(r"\s*=\s*", "=", text)
    for item in text.replace(",", " ").split():
        name, sep, value = item.partition("=")
        name = name.lower()
        if name not in SWITCHES:
            raise ValueError(f"unknown switch '{shorten(name)}' (known: "
                             f"{', '.join(sorted(SWITCHES))})")
        if (not sep or not (value.isascii() and value.isdecimal())
                or int(value) > SWITCHES[name]):
            raise ValueError(f"switch '{name}' takes a whole number from 0 to "
                             f"{SWITCHES[name]}, as {name}=1")
        out[name] = int(value)
    return out


def _taken(m) -> int:
    return m.capture_bits.bit_count()


class Aborted(Exception):
    """Raised inside the tree when the search must stop now."""


def win_in(score: int, nseats: int) -> int | None:
    """+N: the root seat wins in N own moves; -N: loses in N; None if not a decided score."""
    if abs(score) < WIN_BOUND:
        return None
    plies = WIN - abs(score)
    n = max(1, (plies + nseats - 1) // nseats)
    return n if score > 0 else -n


class RootLine:
    __slots__ = ("move", "score", "pv", "exact", "order")

    def __init__(self, move, order: int) -> None:
        self.move = move
        self.score = -INF
        self.pv = [move]
        self.exact = False
        self.order = order


class _HistoryBefore:
    """The move-ordering history as it was: `before` holds the old value of each entry
    changed since."""

    __slots__ = ("now", "before")

    def __init__(self, now: dict, before: dict) -> None:
        self.now = now
        self.before = before

    def get(self, key: tuple, default: int = 0) -> int:
        if key in self.before:
            return self.before[key]
        return self.now.get(key, default)


class Search:
    """One searcher's memory (table, history) and the running search's state."""

    def __init__(self, tt: TranspositionTable) -> None:
        self.tt = tt
        self.evaluators: dict[str, Evaluator] = {}
        self.history: dict = {}
        self.nodes = 0
        self.options: dict = {}  # feature switches for ablation matches (bench/selfplay.py)
        self.grain = 0  # set by each search from the options (`_static` reads it)
        # Endgame tables (`endings.Endings`), probed in two-sided endings with few pieces;
        # None: no tables. The switch `tables=0` turns them off for one search.
        self.endings = None
        # Tests: called as watch(kind, pos, move, depth) for every move pruned ("pruned"),
        # reduced ("reduced") or extended ("extended"), with `pos` the position the move is
        # played from; also for every pass ("null"), quiet leaf whose replies are searched
        # against a multi-jump threat ("evasion", move None, depth the quiescence ply),
        # killer searched before the move list is built ("staged"), the rest of the
        # ordered list when such a killer did not cut ("resumed", `move` that list), and
        # every root move first searched a ply shallower ("root-reduced"), and every
        # quiescence node under a capture duty that takes its static score ("duty-pat",
        # move the pair (static score, beta), depth the quiescence ply).
        self.watch = None
        # Threads > 1 (smp.py): a helper's number (0: the main search), whose iterations
        # are staggered (common.skips); the helpers' node count, added to the reported one.
        self.helper = 0
        self.helper_nodes = None

    def clear(self) -> None:
        self.tt.clear()
        self.history = {}

    def evaluator(self, pos: Position) -> Evaluator:
        ev = self.evaluators.get(pos.variant.name)
        if ev is None:
            weights = weights_for(pos.variant)
            # Ablations (bench/selfplay.py --off w_hanging=0): weights overridden by name.
            changes = {k[2:]: v for k, v in self.options.items() if k.startswith("w_")}
            if changes:
                weights = replace(weights, **changes)
            ev = self.evaluators[pos.variant.name] = Evaluator(pos.variant, weights)
        return ev

    # ---- the stop decision ---------------------------------------------------------
    def _poll(self) -> None:
        self.next_poll = self.nodes + POLL_EVERY
        self.check_at = min(self.next_poll, self.node_limit)
        stop = self.stop
        if stop.is_set():
            raise Aborted
        if self.timed:
            now = time.monotonic()
            if stop.pondering:
                return
            if self.pondering_started:  # (checked here: a call at every poll costs)
                self._ponderhit(now)
            if stop.deadline is not None and now >= stop.deadline:
                raise Aborted
            if self.hard is not None and now - self.t0 >= self.hard:
                raise Aborted

    def _ponderhit(self, now: float) -> None:
        """After a ponderhit, once: the clock for this move starts now, from the clocks as
        they now stand if the session has them."""
        if self.pondering_started and not self.stop.pondering:
            self.pondering_started = False
            self.t0 = now
            if self.stop.clocks is not None:
                self.soft, self.hard = budgets(
                    self.stop.clocks, self.root, self.options.get("togo") or DEFAULT_MOVES_TO_GO)

    def _count_node(self) -> None:
        self.nodes += 1
        if self.nodes >= self.check_at:
            self._checkpoint()

    def _checkpoint(self) -> None:
        """The node count reached `check_at`: the node limit, or the next look at the
        stop flag and the clock. (One comparison a node; the nodes count it inline.)"""
        if self.nodes >= self.node_limit:
            raise Aborted
        if self.nodes >= self.next_poll:
            self._poll()

    # ---- scores --------------------------------------------------------------------
    def _sign(self, seat: int) -> int:
        """+1 if `seat` plays for the root's side, else -1."""
        return self.side[seat]

    def _sides(self) -> tuple[int, ...]:
        """`_sign` of every seat, for this search's root (a lookup at every move)."""
        root = self.root
        if self.teams:
            return tuple(1 if self.team_of[s] == self.team_of[root] else -1
                         for s in range(self.nseats))
        return tuple(1 if s == root else -1 for s in range(self.nseats))

    def _terminal(self, pos: Position, ply: int) -> int | None:
        """The exact value (for the side to move's team) of a decided position, or None."""
        ended = pos._ended
        if ended is not None:
            if ended.winner is None:
                return 0
            value = WIN - ply if ended.wins_for(self.root) else -(WIN - ply)
            return value * self._sign(pos.turn)
        # Three seats: the root seat out is lost for it. A team plays on with one partner.
        if self.three and self.root in pos.eliminated:
            return -(WIN - ply) * self._sign(pos.turn)
        return None

    def _no_move_value(self, pos: Position, ply: int) -> int:
        """The side to move has no legal move (RULES.md §1 End 4)."""
        other = 1 - pos.turn if self.nseats == 2 else None
        if other is not None and pos.occ[other].bit_count() >= pos.variant.win_min_pieces:
            return -(WIN - ply)
        return 0 if other is not None else -(WIN - ply)

    def _static(self, pos: Position) -> int:
        if self.nseats == 2:
            value = self.ev.relative(pos, pos.turn)
        else:
            value = self.ev.relative(pos, self.root) * self._sign(pos.turn)
        if self.grain:
            value = to_grain(value, self.grain)
        # Never a won or lost score: those are exact (weights from a file could reach them).
        if -STATIC_CAP <= value <= STATIC_CAP:
            return value
        return STATIC_CAP if value > 0 else -STATIC_CAP

    def _wins_now(self, pos: Position) -> bool:
        """Can the side to move (not bound to capture) enter the target castle and win with
        a plain step? Called at a quiet leaf, so a win-in-one is not scored as quiet."""
        seat = pos.turn
        if pos.duty[seat]:
            return False
        v = pos.variant
        if self.three and self.ev.reach is not None and self.ev.w.threat1:
            # Canter chains too: a cheap bit-set estimate, confirmed by the move generator.
            allocc = 0
            for bits in pos.occ:
                allocc |= bits
            if self.ev.reach.moves_to_target(pos.occ, seat, allocc) != 1:
                return False
            target = v.target_bits[seat]
            return any(target >> m.end & 1 for m in movegen.generate(pos))
        target = v.target_bits[seat]
        own = pos.occ[seat]
        if v.target_pieces - (own & target).bit_count() != 1:
            return False
        allocc = 0
        for bits in pos.occ:
            allocc |= bits
        free = target & ~allocc
        active = own & ~target
        for o in v.board.up_shifts:
            if (active << o) & free or (active >> o) & free:
                return True
        return False

    def _threatened(self, pos: Position, seat: int) -> bool:
        """Three seats: can a seat other than `seat` enter its target castle in one move
        (bit-set estimate, threats.py)?"""
        reach = self.ev.reach
        allocc = 0
        for bits in pos.occ:
            allocc |= bits
        for s in range(self.nseats):
            if s != seat and pos.occ[s] and s not in pos.eliminated:
                if reach.moves_to_target(pos.occ, s, allocc, pos.kn) == 1:
                    return True
        return False

    def _quiet_replies(self, alpha: int, beta: int, ply: int, qply: int) -> int:
        pos = self.pos
        moves = movegen.generate(pos)
        if not moves:
            return self._static(pos)
        return self._q_children(moves, alpha, beta, ply, qply)[0]

    def _q_children(self, moves: list, alpha: int, beta: int, ply: int,
                    qply: int) -> tuple[int, object]:
        """Best score and move over `moves` one quiescence ply deeper."""
        pos = self.pos
        side = self.side
        sign = side[pos.turn]
        best = -INF
        best_move = None
        for m in moves:
            pos.push(m)
            if side[pos.turn] != sign:
                score = -self.qsearch(-beta, -alpha, ply + 1, qply + 1)
            else:
                score = self.qsearch(alpha, beta, ply + 1, qply + 1)
            pos.pop()
            if score > best:
                best = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if score >= beta:
                        break
        return best, best_move

    # ---- move ordering -------------------------------------------------------------
    def _order(self, pos: Position, moves: list, tt_move, ply: int,
               hist: dict | _HistoryBefore | None = None) -> list:
        """`moves` by `order_key` (and with `order_adv`, quiet moves of equal history by
        their advance), ties in the generator's order. Each key is one int, the key times
        ORDER_SLOTS less the move's index: ints sort without a key function, which took a
        tenth of a Camelot search as pairs."""
        n = len(moves)
        if n < 2:
            return moves
        if n >= ORDER_SLOTS:
            return self._order_pairs(pos, moves, tt_move, ply, hist)
        seat = pos.turn
        target = pos.variant.target_bits[seat]
        kn = 0
        for bits in pos.kn:
            kn |= bits
        k1, k2 = self.killers[ply]
        get = (self.history if hist is None else hist).get
        dist = self.ev.target_dist[seat] if self.order_adv else None
        keyed = []
        add = keyed.append
        i = 0
        for m in moves:
            key = m._key
            if key == tt_move:
                k = 1 << 40
            elif target >> m.end & 1:
                k = 1 << 39
            elif m.capture_bits:
                cb = m.capture_bits
                k = (1 << 30) + (cb.bit_count() << 20) + ((cb & kn).bit_count() << 18)
            elif key == k1:
                k = 1 << 29
            elif key == k2:
                k = KILLER_KEY
            elif dist is None:
                k = get((seat, m.start, m.end), 0)
            else:
                # Quiet moves by history, then by the steps they gain towards the target
                # castle (-7..7): a race's moves come before the others where history
                # has no word.
                h = get((seat, m.start, m.end), 0)
                step = dist[m.start] - dist[m.end]
                k = ((h if h < HISTORY_CAP else HISTORY_CAP) << 4) + 8 + (
                    step if -7 <= step <= 7 else (7 if step > 0 else -7))
            add(k * ORDER_SLOTS - i)
            i += 1
        keyed.sort(reverse=True)
        return [moves[-k & ORDER_MASK] for k in keyed]

    def _order_pairs(self, pos: Position, moves: list, tt_move, ply: int,
                     hist: dict | _HistoryBefore | None = None) -> list:
        """`_order` for a list too long for its packed keys (never met in play)."""
        seat = pos.turn
        target = pos.variant.target_bits[seat]
        kn = 0
        for bits in pos.kn:
            kn |= bits
        k1, k2 = self.killers[ply]
        if hist is None:
            hist = self.history
        keyed = [(order_key(m, seat, target, kn, tt_move, k1, k2, hist), m) for m in moves]
        if self.order_adv:
            dist = self.ev.target_dist[seat]
            keyed = [(k if k >= KILLER_KEY else (min(k, HISTORY_CAP) << 4) + 8
                      + max(-7, min(7, dist[m.start] - dist[m.end])), m) for k, m in keyed]
        keyed.sort(key=first_item, reverse=True)
        return [m for _, m in keyed]

    def likely(self, pos: Position, seat: int, moves: list) -> list:
        """Three seats: the moves of `seat` the search tries: all of the root seat's (its
        `maxn_width` likeliest below the root, under max-n); an
        opponent's `oppk` likeliest (all of them if `oppk` is 0), or only its likeliest
        once it reads as predictable (opponents.py)."""
        k = self.seat_k[seat]
        if not k or len(moves) <= k:
            return moves
        return likeliest(moves, k, pos.variant.target_bits[seat], self.ev.target_dist[seat])

    def _reward(self, seat: int, m, depth: int, ply: int) -> None:
        """A quiet move of `seat` caused a cut-off: remember it as a killer and in the
        history."""
        key = m._key
        ks = self.killers[ply]
        if ks[0] != key and self.use_killers:
            ks[1] = ks[0]
            ks[0] = key
        if self.use_history:
            hk = (seat, m.start, m.end)
            old = self.history.get(hk, 0)
            if self.staged_open:
                self.journal.append((hk, old))
            self.history[hk] = min(old + depth * depth, 1 << 28)

    def _punish(self, seat: int, tried: list, depth: int) -> None:
        """A quiet move cut off after the quiet moves `tried` (searched, not pruned) had
        not: they lose in the history what the cutting move gained (switch `hist_malus`),
        so a move that keeps failing sinks below moves never tried."""
        history = self.history
        journal = self.journal if self.staged_open else None
        bonus = depth * depth
        for m in tried:
            hk = (seat, m.start, m.end)
            old = history.get(hk, 0)
            if journal is not None:
                journal.append((hk, old))
            history[hk] = max(old - bonus, -(1 << 28))

    # ---- a killer before the move list ---------------------------------------------
    def _killer_first(self, pos: Position, ply: int) -> Move | None:
        """The move the full order would search first, when it is a killer and that can be
        known without building the list: no duty (capture or exit), no move into the
        target castle or Knight's charge possible (those come before killers), the table
        move not first, and at least two legal moves (the killer's piece has two: no
        single-reply extension). None otherwise."""
        k1, k2 = self.killers[ply]
        if k1 is None:
            return None
        seat = pos.turn
        if movegen.duty_pieces(pos, seat):
            return None
        sv = movegen.SeatView(pos, seat)
        board = pos.variant.board
        if movegen.leapers(board, sv.active, sv.enemy, sv.jump_ok):
            return None
        if movegen.may_enter_or_charge(pos, sv):
            return None
        for key in (k1, k2):
            if key is None or not (sv.active >> key[0]) & 1:
                continue
            end = key[1]
            its_moves = movegen.piece_moves(pos, sv, key[0], False)
            for m in its_moves:
                if m.end == end and not m.capture_bits:
                    return m if len(its_moves) > 1 else None
        return None

    def _rest_after(self, pos: Position, staged: Move, tt_move: tuple | None, ply: int,
                    mark: int) -> list:
        """The moves after `staged` in the full order, with the history as it was before
        `staged`'s search (the journal holds each value changed since `mark`)."""
        before = {}
        for hk, value in self.journal[mark:]:
            if hk not in before:
                before[hk] = value
        self._close_stage()
        hist = _HistoryBefore(self.history, before) if before else None
        full = self._order(pos, movegen.generate(pos), tt_move if self.use_tt_move else None,
                           ply, hist)
        return [m for m in full if m != staged]

    def _close_stage(self) -> None:
        self.staged_open -= 1
        if not self.staged_open:
            self.journal.clear()

    # ---- the tree ------------------------------------------------------------------
    def _child(self, flip: bool, depth: int, alpha: int, beta: int, ply: int,
               pv: bool) -> int:
        """The value of the position just reached, for the team that moved into it."""
        if flip:
            return -self.negamax(depth, -beta, -alpha, ply, pv)
        return self.negamax(depth, alpha, beta, ply, pv)

    def negamax(self, depth: int, alpha: int, beta: int, ply: int, pv_node: bool) -> int:
        pos = self.pos
        self.nodes = n = self.nodes + 1
        if n >= self.check_at:
            self._checkpoint()
        pv_table = self.pv
        pv_table[ply] = []
        if ply > self.seldepth:
            self.seldepth = ply
        value = self._terminal(pos, ply)
        if value is not None:
            return value
        h = pos.hash
        if ply and self.rep_on and self.rep.get(h, 0) > 1:
            return 0  # the position came back: a repetition draw is available
        if self.quiet_limit and pos.quiet >= self.quiet_limit:
            # The quiet-move draw is the rules' sixth ending: a side left without a move
            # has lost before it (the fourth).
            if self.nseats == 2 and not movegen.has_move(pos, pos.turn):
                return self._no_move_value(pos, ply)
            return 0
        if self.tb_max and ply and self._pieces(pos) <= self.tb_max:
            value = self._probe(pos, ply)
            if value is not None:
                return value
        if depth <= 0 or ply >= MAX_PLY - 1:
            return self._quiesce(alpha, beta, ply, 0)
        key = h ^ self.salt
        # A PV node never takes a table cutoff (the PV has to be searched to be reported).
        s, tt_move = self.tt.lookup(key, NO_CUTOFF if pv_node else depth, alpha, beta, ply,
                                    WIN_BOUND)
        if s is not None:
            return s
        if tt_move is None and self.iir and depth >= self.iir:
            if self.watch is not None:
                self.watch("iir", pos, None, depth)
            depth -= 1
        # Pruning near the leaves needs the static score of a quiet position: never under
        # a capture duty (every move there is a capture, and the score is not settled), at
        # a PV node, or with a decided score in the window.
        staged = None
        capture_extended = False  # counted in self.capexts until this node returns
        mark = 0  # where the journal of history changes starts, when a killer is staged
        if self.stage and not (self.use_tt_move and tt_move is not None):
            staged = self._killer_first(pos, ply)
        if staged is None:
            moves = movegen.generate(pos)
            if not moves:
                return self._no_move_value(pos, ply)
            several = len(moves) > 1
        else:
            # The killer is searched first, as in the full order; the rest of the list is
            # built only if it does not cut (at most nodes it does).
            moves = [staged]
            several = True
        static = None
        if (self.prune and not pv_node and depth <= self.prune_depth
                and -WIN_BOUND < alpha and beta < WIN_BOUND and not movegen.must_capture(pos)):
            static = self._static(pos)
            # Reverse futility: so far above beta that one quiet move cannot bring it back.
            # (After the moves are generated: a side with none has lost, whatever it holds.)
            if static - RFP_MARGIN * depth >= beta:
                return static
        if (self.nullmove and not pv_node and depth >= NULL_DEPTH and self.null_at != ply - 1
                and -WIN_BOUND < beta < WIN_BOUND and several):
            value = self._null_move(pos, depth, beta, ply, static)
            if value is not None:
                return value
        # The depth the node is stored at: the depth it was asked for. A forced node
        # searched one deeper is what any search of it at that depth does, and stored at
        # the raised depth it would answer a probe one deeper, which extends to one more.
        table_depth = depth
        if not several and self.extend and ply < 2 * self.depth_now + 4:
            depth += 1  # single-reply extension: forced moves cost no depth
            if self.store_extended:
                table_depth = depth
        elif (self.capext and several and depth <= 1 and ply < 2 * self.depth_now + 4
              and self.capexts < self.capext_max and movegen.must_capture(pos)):
            # Capture extension: at the last ply, a choice between compulsory captures
            # costs no depth either, so the side that captured gets a full-width reply
            # (everywhere in the tree it cost 5.6 times the nodes at depth 4). An exchange
            # extends at each of its captures; `capext_max` caps the extensions of a line.
            depth += 1
            table_depth = depth  # (a search of it at depth 2 is the same two plies)
            self.capexts += 1
            capture_extended = True
            if self.watch is not None:
                self.watch("capture-extended", pos, moves, depth)
        if self.three:
            moves = self.likely(pos, pos.turn, moves)
        if staged is None:
            moves = self._order(pos, moves, tt_move if self.use_tt_move else None, ply)
        else:
            # From here the history changes are journalled, to order the rest as the full
            # list would have been ordered now.
            mark = len(self.journal)
            self.staged_open += 1
            if self.watch is not None:
                self.watch("staged", pos, staged, depth)
        turn = pos.turn
        side = self.side
        sign = side[turn]
        rep = self.rep
        alpha0 = alpha
        best = -INF
        best_move = None
        first = True
        target = pos.variant.target_bits[turn]
        killers = self.killers[ply]
        # Late move reductions: quiet moves late in the order, at depth >= 3 (2 with
        # `lmrlog`), are first searched shallower; a move that beats alpha is searched
        # again at full depth.
        # Never a capture (a capture duty makes every move one), a castle entry or a killer.
        log = self.lmr_log
        lmr_from = (LMR_FROM if self.lmr and depth >= (LMR_DEPTH if log is None else
                                                       LMR_LOG_DEPTH) else 1 << 30)
        # Futility and late-move pruning (quiet positions near the leaves, `static` set):
        # quiet moves that cannot lift the score to alpha, or that come too late in the
        # order, are not searched. Captures and castle entries always are.
        futile = static is not None and depth <= 2 and static + FUTILITY[depth] <= alpha
        # (The single-reply extension may have raised `depth` past PRUNE_DEPTH: one move,
        # nothing to prune.)
        late = LMP_COUNT[depth] if static is not None and depth <= PRUNE_DEPTH else 1 << 30
        # (`fresh_offers`) Where the other side could capture already, a quiet move offers
        # nothing new: it leaves a capture standing, and may be pruned like any other.
        # Asked once a node, and only where moves may be pruned (`static` set).
        standing = (self.fresh_offers and static is not None
                    and movegen.must_capture(pos, 1 - turn))
        threat_ext = self.entry_ext and ply < 2 * self.depth_now + 4
        jump_ext = self.jump_ext and depth >= 2 and ply < 2 * self.depth_now + 4
        tried = [] if self.hist_malus else None  # quiet moves searched, for the malus
        index = 0
        for m in moves:
            quiet = not m.capture_bits and not target >> m.end & 1
            # Late moves are pruned only once a move has been found that does not lose:
            # the one defence against a castle entry may come late in the order.
            skip = not first and quiet and (futile or index >= late and best > -WIN_BOUND)
            reduce = (not first and quiet and lmr_from <= index and m._key not in killers)
            if skip and (standing or not self._offers(pos, m)):
                # (A move that offers a piece is never pruned, though it may be reduced:
                # the reply is a compulsory capture, and such offers start combinations.)
                if futile and static + FUTILITY[depth] > best:
                    best = static + FUTILITY[depth]
                if self.watch is not None:
                    self.watch("pruned", pos, m, depth)
                index += 1
                continue
            pos.push(m)
            hc = pos.hash
            rep[hc] = rep.get(hc, 0) + 1
            flip = side[pos.turn] != sign
            child_depth = depth - 1
            if threat_ext and quiet and self._threatens_entry(pos, turn, m):
                child_depth += 1
                reduce = False
            if (jump_ext and quiet and child_depth < depth and self._threatens_jumps(pos, turn)):
                child_depth += 1
                reduce = False
                if self.watch is not None:
                    pos.pop()
                    self.watch("extended", pos, m, depth)
                    pos.push(m)
            if reduce and self.lmr_threat and movegen.must_capture(pos, turn):
                # The move threatens a capture: reduced, the reply's leaf would never see
                # it taken (from remaining depth 2, straight into quiescence).
                reduce = False
            if first:
                score = self._child(flip, child_depth, alpha, beta, ply + 1, pv_node)
            else:
                if reduce:
                    reduce = (1 + (index >= LMR_DEEP_FROM and depth >= 5) if log is None
                              else log[min(depth, MAX_DEPTH)][min(index, 127)])
                    if self.watch is not None:
                        pos.pop()
                        self.watch("reduced", pos, m, depth)
                        pos.push(m)
                # PVS: a null window first (switch `pvs` off: the full window at once).
                window = alpha + 1 if self.pvs else beta
                score = self._child(flip, child_depth - reduce, alpha, window, ply + 1, False)
                if reduce and score > alpha:
                    score = self._child(flip, child_depth, alpha, window, ply + 1, False)
                if window < beta and alpha < score < beta:
                    score = self._child(flip, child_depth, alpha, beta, ply + 1, True)
            rep[hc] -= 1
            index += 1
            pos.pop()
            first = False
            if score > best:
                best = score
                best_move = m
                if score > alpha:
                    alpha = score
                    if pv_node:
                        pv_table[ply] = [m] + pv_table[ply + 1]
                    if score >= beta:
                        if not m.capture_bits:
                            self._reward(pos.turn, m, depth, ply)
                            if tried and self.use_history:
                                self._punish(pos.turn, tried, depth)
                        break
            if tried is not None and quiet:
                tried.append(m)
            if staged is not None:
                # The killer did not cut: the other moves, in the order the full list
                # would have had before the killer's search changed the history.
                moves += self._rest_after(pos, staged, tt_move, ply, mark)
                staged = None
                if self.watch is not None:
                    self.watch("resumed", pos, moves[1:], depth)
        if staged is not None:
            self._close_stage()
        self.tt.store(key, table_depth, bound_of(best, alpha0, beta),
                      relative(best, WIN_BOUND, ply),
                      best_move._key if best_move else None)
        if capture_extended:
            self.capexts -= 1
        return best

    def _null_move(self, pos: Position, depth: int, beta: int, ply: int,
                   static: int | None) -> int | None:
        """Null-move pruning: let the side to move pass, and search the other side's reply
        shallower with a null window at beta. If passing still holds beta, a real move
        will too (most positions are not zugzwang), so the node is cut. Passing is not a
        legal move: only a position where it could have been one is tried (no capture or
        exit duty, enough pieces), and the pass is never played beyond this search."""
        turn = pos.turn
        if pos.duty[turn] or pos.occ[turn].bit_count() < NULL_MIN_PIECES:
            return None
        if movegen.must_capture(pos):
            return None
        if static is None:
            static = self._static(pos)
        if static < beta:
            return None
        if self.watch is not None:
            self.watch("null", pos, None, depth)
        pos.push_null()
        saved = self.null_at
        self.null_at = ply
        reduction = NULL_R + (depth >= NULL_DEEP)
        try:
            score = -self.negamax(depth - 1 - reduction, -beta, -beta + 1, ply + 1, False)
        finally:
            self.null_at = saved
            pos.pop_null()
        if score >= beta:
            # A won score found after a pass is not proof of a win: report beta.
            return beta if score >= WIN_BOUND else score
        return None

    @staticmethod
    def _pieces(pos: Position) -> int:
        n = 0
        for bits in pos.occ:
            n += bits.bit_count()
        return n

    def _probe(self, pos: Position, ply: int) -> int | None:
        """The exact value of a two-sided ending a table holds, or None. A win or loss
        further off than the quiet-move draw allows is left to the search (the tables
        ignore that draw; docs/tables.md)."""
        got = self.endings.probe(pos)
        if got is None:
            return None
        result, dist = got
        if result and self.quiet_limit and pos.quiet + dist >= self.quiet_limit:
            return None
        self.tbhits += 1
        if not result:
            return 0
        value = WIN - ply - dist
        return value if result > 0 else -value

    def _threatens_entry(self, pos: Position, seat: int, m) -> bool:
        """After `seat`'s quiet move `m` (pushed): does it now stand one step from the
        castle entry that wins (its last missing piece next to a free target cell)?"""
        v = pos.variant
        target = v.target_bits[seat]
        own = pos.occ[seat]
        if v.target_pieces - (own & target).bit_count() != 1 or target >> m.end & 1:
            return False
        free = target & ~self._all(pos)
        cell = 1 << m.end
        for o in v.board.up_shifts:
            if (cell << o) & free or (cell >> o) & free:
                return True
        return False

    def _offers(self, pos: Position, m) -> bool:
        """Is the reply to the quiet move `m` a compulsory capture? Two seats answer from
        the bit sets (`movegen.offers_capture`): most moves near the leaves are pruned, and
        a push and pop for each took about 8 % of a search from the Camelot start.
        Teams play the move to see whose turn comes next."""
        if self.plain_two:
            return movegen.offers_capture(pos, m)
        pos.push(m)
        offer = movegen.must_capture(pos)
        pos.pop()
        return offer

    @staticmethod
    def _threatens_jumps(pos: Position, seat: int) -> bool:
        """After `seat`'s quiet move (pushed): could it take two pieces or more in one move
        if it moved again, while the reply is free (no capture duty) to parry? A quiet move
        had no jump before it, so such a threat is new."""
        return movegen.most_taken(pos, seat) >= 2 and not movegen.must_capture(pos)

    def _jump_threat_against(self, pos: Position) -> bool:
        """At a quiet leaf of two seats: could the side not to move take `QTHREAT_TAKES`
        pieces or more in one move if it moved now?"""
        return movegen.most_taken(pos, 1 - pos.turn) >= QTHREAT_TAKES

    def _evasions(self, alpha: int, beta: int, ply: int, qply: int) -> int:
        """A quiet leaf under a multi-jump threat: the side to move cannot pass, so its
        static score is not a bound; its replies are searched, each followed by the
        opponent's compulsory captures. No second such ply below it: the cost is one
        move list per threatened leaf, not a growing tree."""
        if self.watch is not None:
            self.watch("evasion", self.pos, None, qply)
        self.evading = True
        try:
            moves = movegen.generate(self.pos)
            if not moves:
                return self._no_move_value(self.pos, ply)
            if len(moves) > 1:
                moves = self._order(self.pos, moves, None, ply)
            return self._q_children(moves, alpha, beta, ply, qply)[0]
        finally:
            self.evading = False

    def _stand_or_charge(self, alpha: int, beta: int, ply: int, qply: int) -> int:
        """A quiet leaf: the static score (standing pat) or, better, a Knight's charge that
        takes `QCHARGE_TAKES` pieces or more, each followed by the compulsory captures it
        allows."""
        static = self._static(self.pos)
        if static >= beta:
            return static
        moves = [m for m in movegen.optional_charges(self.pos)
                 if _taken(m) >= QCHARGE_TAKES]
        if not moves:
            return static
        if len(moves) > 1:
            moves.sort(key=_taken, reverse=True)
        best = self._q_children(moves, max(alpha, static), beta, ply, qply)[0]
        return best if best > static else static

    @staticmethod
    def _all(pos: Position) -> int:
        allocc = 0
        for bits in pos.occ:
            allocc |= bits
        return allocc

    def qsearch(self, alpha: int, beta: int, ply: int, qply: int = 0) -> int:
        """Compulsory captures only; with no capture compulsory the position is quiet.
        Past `self.qdepth` capture plies the static score stands in even under compulsion
        (long exchanges would otherwise multiply the tree)."""
        pos = self.pos
        self.nodes = n = self.nodes + 1
        if n >= self.check_at:
            self._checkpoint()
        if ply > self.seldepth:
            self.seldepth = ply
        if pos._ended is not None or self.three:
            value = self._terminal(pos, ply)
            if value is not None:
                return value
        return self._quiesce(alpha, beta, ply, qply)

    def _quiesce(self, alpha: int, beta: int, ply: int, qply: int) -> int:
        """`qsearch` past its node count and end test, for a caller that made both (a
        node at depth 0 is one node, not two)."""
        pos = self.pos
        if not movegen.must_capture(pos):
            if self._wins_now(pos):
                return WIN - ply - 1
            if self.qthreat and not self.evading:
                # A threat only lowers the score (a quiet reply adds at most a tempo), so a
                # leaf already below alpha fails low without a look at the threat.
                static = self._static(pos)
                if static + QTHREAT_MARGIN <= alpha or not self._jump_threat_against(pos):
                    return static
                return self._evasions(alpha, beta, ply, qply)
            if not (self.threat_ext and qply < self.threat_ext and pos.turn == self.root
                    and self._threatened(pos, self.root)):
                if self.qcharge and qply < self.qdepth:
                    return self._stand_or_charge(alpha, beta, ply, qply)
                return self._static(pos)
            # An opponent enters a castle next move unless the root seat stops it: its
            # moves are searched (no stand-pat), and the threat checked at the next leaf.
            return self._quiet_replies(alpha, beta, ply, qply)
        if qply >= self.qdepth or ply >= MAX_PLY - 1:
            return self._static(pos)
        key = pos.hash ^ self.salt
        s, tt_move = self.tt.lookup(key, 0, alpha, beta, ply, WIN_BOUND)
        if s is not None:
            return s
        if self.duty_pat:
            static = self._static(pos)
            if static - self.duty_pat >= beta:
                if self.watch is not None:
                    self.watch("duty-pat", pos, (static, beta), qply)
                return static
        moves = movegen.generate(pos)
        if not moves:
            return self._no_move_value(pos, ply)
        if self.three and self.q_likely:
            moves = self.likely(pos, pos.turn, moves)
        if len(moves) > 1:
            if pos.duty[pos.turn]:
                # An exit duty may leave quiet moves in the list: the full order.
                moves = self._order(pos, moves, tt_move, ply)
            else:
                moves = order_captures(pos, moves, tt_move)
        best, best_move = self._q_children(moves, alpha, beta, ply, qply)
        self.tt.store_quiet(key, bound_of(best, alpha, beta), relative(best, WIN_BOUND, ply),
                            best_move._key)
        return best

    # ---- the root ------------------------------------------------------------------
    def _root_child(self, line: RootLine, depth: int, alpha: int, beta: int) -> int:
        pos = self.pos
        pos.push(line.move)
        hc = pos.hash
        self.rep[hc] = self.rep.get(hc, 0) + 1
        # A null window (the root's test of a later move) is not a PV node: it may prune.
        pv_node = beta - alpha > 1 or not self.root_null
        try:
            if self._sign(pos.turn) != 1:
                return -self.negamax(depth - 1, -beta, -alpha, 1, pv_node)
            return self.negamax(depth - 1, alpha, beta, 1, pv_node)
        finally:
            self.rep[hc] -= 1
            pos.pop()

    def _first_child(self, line: RootLine, depth: int, k: int) -> int:
        """The exact score of a leading root move. Aspiration (two sides, one line, from
        `ASPIRATION_DEPTH`): first a window around the previous iteration's score, which
        cuts more; a score outside it is searched again with the full window."""
        prev = line.score
        if (self.aspiration and k == 1 and depth >= ASPIRATION_DEPTH
                and -WIN_BOUND < prev < WIN_BOUND):
            lo, hi = prev - ASPIRATION_WINDOW, prev + ASPIRATION_WINDOW
            score = self.child(line, depth, lo, hi)
            if lo < score < hi:
                return score
        return self.child(line, depth, -INF, INF)

    def _iterate(self, lines: list[RootLine], depth: int, k: int) -> None:
        """One iteration over the root moves; the first `k` get exact scores (MultiPV)."""
        for line in lines:
            line.exact = False
        done: list[RootLine] = []
        for i, line in enumerate(lines):
            if len(done) < k:
                floor = -INF
            else:
                floor = sorted((d.score for d in done), reverse=True)[k - 1]
            # A later root move is searched again only if it beats the floor by more
            # than the margin (switch `root_margin`; 0: by any amount). Not beside a won
            # or lost score, where a few points are plies to the end, not worth.
            bar = floor + self.root_margin if -WIN_BOUND < floor < WIN_BOUND else floor
            self.currmove = line.move
            self.currmovenumber = i + 1
            if i < k:
                score = self._first_child(line, depth, k)
                exact = True
            else:
                m = line.move
                if (self.root_lmr and i >= ROOT_LMR_FROM and depth >= LMR_DEPTH
                        and not m.capture_bits and not self.root_target >> m.end & 1):
                    # A late quiet root move (switch `root_lmr`): a ply shallower first;
                    # only one that beats the floor there is searched at full depth.
                    if self.watch is not None:
                        self.watch("root-reduced", self.pos, m, depth)
                    score = self.child(line, depth - 1, bar, bar + 1)
                    if score > bar:
                        score = self.child(line, depth, bar, bar + 1)
                else:
                    score = self.child(line, depth, bar, bar + 1)
                exact = False
                if score > bar:
                    score = self.child(line, depth, floor, INF)
                    exact = True
                elif score > floor:
                    # Within the margin: an upper bound, held at the floor so that the
                    # floor stays the best exact score.
                    score = floor
            line.score = score
            line.exact = exact
            if exact:
                line.pv = [line.move] + self.pv[1]
            done.append(line)

    def run(self, pos: Position, limits: Limits, on_info, stop: StopFlag, *, multipv: int = 1,
            algorithm: str = "paranoid", skill: int = 20,
            opponent_moves: int = 0, read_opponents: bool = False) -> SearchResult:
        self.t0 = time.monotonic()
        self.stop = stop
        self.root_pos = pos
        self.pos = pos = pos.copy()  # the searcher pushes and pops on its own copy
        self.ev = self.evaluator(pos)
        self.nseats = pos.variant.nseats
        # A team game is searched as two sides taking turns: the value is always for the
        # side to move's team and is negated only when the team to move changes (an
        # eliminated or passing seat can give one team two turns in a row). Paranoid
        # search's coalition machinery (likeliest opponent moves, threats, BRS) is for
        # three seats playing each for itself.
        self.teams = pos.variant.is_team_game
        self.team_of = pos.variant.team_of
        self.three = self.nseats > 2 and not self.teams
        self.plain_two = self.nseats == 2 and not self.teams
        self.root = pos.turn
        self.side = self._sides()
        self.nodes = 0
        self.seldepth = 0
        self.next_poll = POLL_EVERY
        self.node_limit = limits.nodes if limits.nodes else 1 << 62
        self.check_at = min(self.next_poll, self.node_limit)
        soft, self.hard = budgets(limits, pos.turn,
                                  self.options.get("togo") or DEFAULT_MOVES_TO_GO)
        self.soft = soft
        self.iteration_stop = (self.options.get("iterstop") or ITERATION_STOP) / 100
        self.timed = True  # stop flag and deadline are always honoured; budgets may be None
        self.pondering_started = stop.pondering
        self.rep_on = pos.rules.repetition != "off"
        self.quiet_limit = pos.rules.quiet_limit
        self.rep = {}
        for h in pos._hashes:
            self.rep[h] = self.rep.get(h, 0) + 1
        self.pv = [[] for _ in range(MAX_PLY + 1)]
        # Endgame tables: probed only where the pieces are few enough for one to exist.
        self.tbhits = 0
        self.tb_max = 0
        if self.endings is not None and self.options.get("tables", 1):
            self.tb_max = self.endings.max_pieces.get(pos.variant.name, 0)
        self.killers = [[None, None] for _ in range(MAX_PLY + 1)]
        self.depth_now = 1
        self.qdepth = self.options.get("qdepth", QDEPTH)
        # Three seats: each opponent's likeliest moves only (0 = all of them).
        self.oppk = self.options.get("oppk", opponent_moves) if self.three else 0
        self.seat_k = [self.oppk] * self.nseats
        if self.three:
            self.seat_k[self.root] = 0
            if read_opponents and self.options.get("read", 1):
                readable = predictable_seats(pos, self.ev.target_dist)
                for s in range(self.nseats):
                    if s != self.root and readable[s]:
                        self.seat_k[s] = 1
        self.q_likely = bool(self.options.get("qlikely", 1))
        self.extend = bool(self.options.get("extend", 1))
        self.store_extended = bool(self.options.get("store_extended", STORE_EXTENDED))
        self.iir = self.options.get("iir", IIR) if self.plain_two else 0
        # On in two-sided games: +69 Elo at 10+0.1 in Camelot (docs/search.md, "The
        # capture extension at 10+0.1"); the others share the capture duty it is about.
        # Three seats: off (-9.4 +/- 15.3 over 1,002 Tri-Camelot games at 10+0.1).
        self.capext = bool(self.options.get("capext", 0 if self.three else 1))
        # The most capture extensions along one line (0: no limit); the count of the line
        # being searched (an aborted search leaves it wrong, so each run starts it at 0).
        self.capext_max = self.options.get("capext_max", 0) or MAX_PLY
        self.capexts = 0
        # The selectivity of two-sided searches (docs/search.md, "Selectivity"): each
        # feature is a switch, and `selective=1` turns them all on (`selective=0` all off).
        # On in Camelot, Chivalry and Cam, where the strength test at 10+0.1 kept it; off
        # in Camette (flat) and Grand Cam (unmeasured). Three seats never
        # take them by default: the paranoid tree already keeps each opponent's likeliest
        # moves alone, and its values are not a zero-sum score to prune on.
        sel = 0 if self.three else self.options.get(
            "selective", int(pos.variant.name in SELECTIVE_GAMES))
        self.lmr = bool(self.options.get("lmr", sel))
        n = self.options.get("lmrlog", 0)
        self.lmr_log = lmr_log_table(n) if self.lmr and n else None
        self.lmr_threat = bool(self.options.get("lmr_threat", 0))
        # On in Camelot: +18.1 +/- 21.6 over 1,000 games at 10+0.1, LOS 95.0 % (docs/search.md,
        # "Quiet moves by their advance"); in Cam flat with root_lmr and fresh_offers
        # ("Camelot's search settings in Cam"); the other games are unmeasured.
        self.order_adv = not self.three and bool(
            self.options.get("order_adv", int(pos.variant.name in ORDER_ADV_GAMES)))
        self.prune = bool(self.options.get("prune", sel))
        self.prune_depth = PRUNE_DEPTH
        self.entry_ext = bool(self.options.get("entry_ext", sel))
        # A quiet move that threatens a multi-jump is searched a ply deeper (off: the tenth
        # of a ply it costs lost -39.5 +/- 39.7 over 300 games at 10+0.1; docs/search.md).
        self.jump_ext = not self.three and bool(self.options.get("jump_ext", 0))
        self.aspiration = bool(self.options.get("aspiration", sel))
        self.root_null = bool(self.options.get("rootnull", sel))
        self.nullmove = (not self.three and not self.teams
                         and bool(self.options.get("nullmove", NULLMOVE)))
        self.null_at = -2  # the ply of the pass being searched (no pass right after one)
        self.qthreat = (not self.three and not self.teams
                        and bool(self.options.get("qthreat", QTHREAT)))
        self.evading = False
        self.qcharge = not self.three and bool(self.options.get("qcharge", QCHARGE))
        # Ablation switches (bench/selfplay.py --off NAME=0, --base NAME=1).
        self.use_killers = bool(self.options.get("killers", 1))
        self.use_history = bool(self.options.get("history", 1))
        self.hist_malus = bool(self.options.get("hist_malus", HIST_MALUS))
        # Where the other side could already capture, a quiet move after which it must is
        # an offer only with this switch off. On in Camelot: +20.2 +/- 21.6 over 1,000
        # games at 10+0.1 (docs/search.md, "Fresh offers"); flat in Cam with the other two
        # of Camelot's settings; the other games are unmeasured.
        self.fresh_offers = self.plain_two and bool(
            self.options.get("fresh_offers", int(pos.variant.name in FRESH_OFFERS_GAMES)))
        self.duty_pat = self.options.get("duty_pat", DUTY_PAT) if self.plain_two else 0
        grain = self.options.get("grain", GRAIN)
        self.grain = grain if grain > 1 else 0
        self.root_margin = self.options.get("root_margin", ROOT_MARGIN)
        # On in Camelot: +38.0 +/- 21.7 over 1,001 games at 10+0.1 (docs/search.md, "The history
        # malus and root reductions"); on in Chivalry: +16.1 +/- 16.7 over 1,665 games, LOS
        # 97.0 %; Cam and Camette are unmeasured.
        self.root_lmr = self.plain_two and bool(
            self.options.get("root_lmr", int(pos.variant.name in ROOT_LMR_GAMES)))
        self.root_target = pos.variant.target_bits[pos.turn]
        # The table move first: only with the selectivity (by itself 51.4 % over 800 games
        # at three plies, and 4-8 % more nodes to a fixed depth than killers and history
        # alone); the root and quiescence always use it.
        self.use_tt_move = bool(self.options.get("ttmove", sel))
        # A killer tried before the move list is built (`_killer_first`): the same search,
        # faster; the switch is for the tests that prove it the same.
        self.stage = not self.three and not self.teams and bool(self.options.get("stage", 1))
        self.staged_open = 0
        self.journal: list = []
        self.pvs = bool(self.options.get("pvs", sel))
        # Three seats: quiet plies of the root seat searched at a leaf where an opponent
        # threatens a castle entry (0 = off).
        self.threat_ext = self.options.get("threat_ext", THREAT_PLIES) if self.three else 0
        self.tt.new_search()
        brs = self.three and algorithm in ("brs", "brs+")
        # Plies per round of the root seat's moves: Best-Reply trees alternate two layers;
        # a seat out of the game has no turns (a seat eliminated later in a line, or one
        # that passes, still makes the count of that line a little long).
        self.cycle = 2 if brs else max(1, self.nseats - len(pos.eliminated))
        self.salt = ROOT_SALT[self.root] ^ OPPK_SALT[min(self.oppk, 64)] if self.three else 0
        for s, k in enumerate(self.seat_k):
            if s != self.root and k != self.oppk:
                self.salt ^= READ_SALT[s]
        if brs:
            self.brs = BestReply(self, plus=algorithm == "brs+")
            self.salt ^= BRS_SALT if algorithm == "brs" else BRS_PLUS_SALT
            self.child = self.brs.root_child
        elif self.three and algorithm == "maxn":
            self.child = MaxN(self).root_child
            self.root_margin = 0  # its root values are exact whatever the window: no gain
        else:
            self.child = self._root_child

        moves = pos.legal_moves() if pos.outcome() is None else []
        if limits.searchmoves:
            moves = [m for m in moves if m in limits.searchmoves] or moves
        if not moves:
            return SearchResult(None)
        weak = skill < 20
        k = min(max(multipv, 4 if weak else 1), len(moves))
        max_depth = MAX_DEPTH
        if limits.depth:
            max_depth = min(max_depth, limits.depth)
        if limits.mate:
            max_depth = min(max_depth, self.cycle * limits.mate + 1)
        if weak:
            max_depth = min(max_depth, 1 + skill // 3)
        asked = bool(limits.searchmoves) and not limits.narrowed
        if len(moves) == 1 and not asked and not (limits.infinite or stop.pondering):
            # One legal move (or one a proof leaves): answered at once, but with a searched
            # score (the move and the quiescence after it), not the static score of the
            # position before it. A move a client named by `searchmoves` is one to
            # analyse: it is searched as asked.
            max_depth = 1
        moves = self._order(pos, moves, self._tt_move(pos), 0)
        lines = [RootLine(m, i) for i, m in enumerate(moves)]
        best_lines = lines[:k]
        last_info = None
        root_static = self._static(pos)
        completed = 0
        # Helpers (Threads > 1) are made to differ from the main search (switch `smp`):
        # 1 staggered depths, 2 the root moves in reverse order, 3 both.
        smp = self.options.get("smp", 1) if self.helper else 0
        for depth in range(1, max_depth + 1):
            if smp & 1 and skips(self.helper, depth):
                continue
            self.depth_now = depth
            try:
                self._iterate(lines[::-1] if smp & 2 and depth > 1 else lines, depth, k)
            except Aborted:
                # Keep what the unfinished iteration proved: the previous best move was
                # searched exactly at this depth, and any move that beat it too.
                if lines[0].exact and completed:
                    done = sorted((x for x in lines if x.exact),
                                  key=lambda x: (-x.score, x.order))
                    if done[0] is not lines[0] and k == 1:
                        best_lines = [_snapshot(done[0])]
                break
            lines.sort(key=lambda x: (not x.exact, -x.score, x.order))
            best_lines = [_snapshot(x) for x in lines[:k]]
            completed = depth
            last_info = self._report(best_lines, depth, on_info, multipv if not weak else 1)
            # Re-read the flag: a ponder search becomes a timed one at ponderhit.
            if not (limits.infinite or stop.pondering) and self._enough(best_lines[0], depth,
                                                                         limits):
                break
        # The root position, not `pos`: an aborted search leaves `pos` deep in the tree,
        # and the weak levels' choice is seeded from the position they play in.
        best = self._choose(best_lines, skill, self.root_pos)
        if not best.exact:
            # Stopped before any root move was searched: no score was proved, so report
            # the static one (never a made-up win or loss).
            best.score = root_static
        if last_info is None or best.move != last_info.pv[0]:
            last_info = self._report([best], max(completed, 1), on_info, 1)
        pv = last_info.pv
        ponder = pv[1] if len(pv) > 1 and pv[0] == best.move else None
        return SearchResult(best.move, ponder, last_info)

    def _tt_move(self, pos: Position):
        entry = self.tt.probe(pos.hash ^ self.salt)
        return entry[4] if entry else None

    def _enough(self, line: RootLine, depth: int, limits: Limits) -> bool:
        """Stop iterating? (Clock checks never apply under depth or node limits alone.)"""
        n = win_in(line.score, self.cycle)
        if n is not None:
            if limits.mate and 0 < n <= limits.mate:
                return True
            if depth >= self.cycle * abs(n) + 2 and not limits.depth and not limits.nodes:
                return True
        if not self.stop.pondering:
            self._ponderhit(time.monotonic())  # (an iteration may end before the next poll)
            if self.soft is not None and (time.monotonic() - self.t0
                                          >= self.iteration_stop * self.soft):
                return True
        return False

    def _choose(self, lines: list[RootLine], skill: int, pos: Position) -> RootLine:
        if skill >= 20 or len(lines) == 1:
            return lines[0]
        # Weakening: a deterministic random bonus (seeded by the position) of up to
        # 12 points per missing skill level, so weaker levels prefer worse moves more often.
        rng = random.Random(pos.hash ^ (skill * 0x9E3779B97F4A7C15))
        spread = (20 - skill) * 12
        top = lines[0].score
        best, best_val = lines[0], -INF
        for line in lines:
            if not line.exact or line.score < top - 4 * spread:
                continue
            val = line.score + rng.randint(0, spread)
            if val > best_val:
                best, best_val = line, val
        return best

    def _report(self, lines, depth, on_info, multipv):
        elapsed = time.monotonic() - self.t0
        nodes = self.nodes + (self.helper_nodes() if self.helper_nodes is not None else 0)
        first = None
        for i, line in enumerate(lines[:multipv]):
            w = win_in(line.score, self.cycle)
            info = SearchInfo(
                depth=depth, seldepth=max(self.seldepth, depth),
                score_cp=None if w is not None else line.score, score_win=w,
                nodes=nodes, time=elapsed, hashfull=self.tt.hashfull(),
                tbhits=self.tbhits or None,
                pv=_legal_prefix(self.root_pos, line.pv) or [line.move],
                multipv=i + 1 if multipv > 1 else None)
            on_info(info)
            first = first or info
        return first


def _snapshot(line: RootLine) -> RootLine:
    copy = RootLine(line.move, line.order)
    copy.score, copy.pv, copy.exact = line.score, list(line.pv), line.exact
    return copy


def _legal_prefix(pos: Position, pv: list) -> list:
    """The longest start of `pv` that is a legal sequence in the real turn order (the
    table may cut a line short, and Best-Reply lines skip turns)."""
    work = pos.copy()
    out = []
    for m in pv:
        if work.outcome() is not None or m not in work.legal_moves():
            break
        work.push(m)
        out.append(m)
    return out
