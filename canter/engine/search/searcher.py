"""The searcher the protocol session drives (the contract is `canter.engine.search.limits`).

Attributes the session sets from engine options: `hash_mb` (transposition table size),
`multipv`, `skill` (0..20, 20 = full strength), `algorithm` ("paranoid" | "brs" | "brs+" |
"maxn", used with three seats), `opponent_moves` (three seats: each opponent's likeliest
moves searched, 0 = all), `read_opponents` (three seats: an opponent that keeps making its
likeliest move is searched with that move alone, `opponents.py`) and `weights` (evaluation
weights by name that replace the built-in ones, `evaluate.Weights`; empty = none, option EvalFile),
`tables` (endgame tables, `endings.Endings`, or None; options UseTables and TablePath) and
`threads` (processes that search, option Threads: above 1, helper processes of `smp.py`
share a table in shared memory with the main search, which alone decides the move).
Methods: `clear` (new game), `search` (runs in the session's search thread, polls `stop`),
`evaluate` (static score with a breakdown), `close` (end the helper processes).

The thinking is in `alphabeta.py` (alpha-beta, paranoid), `brs.py` (Best-Reply Search),
`evaluate.py`, `tt.py` and `timeman.py`.

Where a proof is shipped for the game (Camette, `solve/proofs/`) and it covers the position,
the searcher plays from it instead of searching (`use_proofs`, on by default): the proof's
move when the side to move wins, the move with the longest proof when it loses; an
`info string solved ...` line says so (docs/solve.md).
"""

from __future__ import annotations

from dataclasses import replace

from canter.engine.rules.position import Position
from canter.engine.search.alphabeta import Search
from canter.engine.search.limits import (
    InfoCallback,
    Limits,
    SearchInfo,
    SearchResult,
    StopFlag,
)
from canter.engine.search.tt import TranspositionTable

ALGORITHMS = ("paranoid", "brs", "brs+", "maxn")
# Three seats: how many of each opponent's likeliest moves the search tries (0 = all);
# 3 won the measured comparison (docs/search.md).
OPPONENT_MOVES = 3


class Searcher:
    def __init__(self) -> None:
        self._threads = 1
        self.hash_mb = 16
        self.multipv = 1
        self.skill = 20
        self.algorithm = "paranoid"  # won the three-seat tournament (docs/search.md)
        self.opponent_moves = OPPONENT_MOVES
        self.read_opponents = True
        self.weights: dict[str, object] = {}
        # Search switches by name (alphabeta.SWITCHES), as the `Search Switches` option sets
        # them: a build tested against itself with one feature on or off.
        self.switches: dict[str, int] = {}
        self.use_proofs = True  # play from a shipped proof where it covers the position
        self.tables = None  # endgame tables (`endings.Endings`), None: none
        self._tt = TranspositionTable(self.hash_mb)
        self._search = Search(self._tt)
        self._applied: dict[str, object] = {}  # the options `weights` and `switches` put
        # Threads > 1: the search over the shared table, and its helper processes (smp.py),
        # made when a search first needs them and kept until `threads` or `hash_mb` change.
        self._smp: Search | None = None
        self._pool = None
        self._no_helpers: str | None = None  # why helpers cannot run here, once found

    @property
    def threads(self) -> int:
        return self._threads

    @threads.setter
    def threads(self, n: int) -> None:
        n = max(1, n)
        if n != self._threads:
            self.close()
            self._threads = n
            self._no_helpers = None

    def clear(self) -> None:
        """New game: forget the table and the move-ordering history."""
        self._search.clear()
        if self._smp is not None:
            self._smp.clear()
            if self._pool is not None:
                self._pool.clear_pending = True

    def close(self) -> None:
        """End the helper processes and free the shared table (Threads or Hash changed,
        quit). The next search with Threads > 1 starts them again."""
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self._smp is not None:
            self._smp.tt.close()
            self._smp = None

    def search(self, pos: Position, limits: Limits, on_info: InfoCallback,
               stop: StopFlag) -> SearchResult:
        if self.use_proofs:
            solved = self._from_proof(pos, limits, on_info)
            if isinstance(solved, SearchResult):
                return solved
            if solved is not None:
                limits = replace(limits, searchmoves=solved, narrowed=True)
        self._use_overrides()
        self._search.endings = self.tables
        algorithm = self.algorithm if self.algorithm in ALGORITHMS else "paranoid"
        kwargs = dict(multipv=max(1, self.multipv), algorithm=algorithm,
                      skill=max(0, min(20, self.skill)),
                      opponent_moves=max(0, self.opponent_moves),
                      read_opponents=self.read_opponents)
        # A weakened search (Skill Level) is shallow on purpose: helpers would not help it.
        # Nor in an ending the tables hold: the main search has the exact value at once,
        # and the helpers (which probe no tables) could only outvote it with a worse move.
        if self._threads > 1 and kwargs["skill"] == 20 and not self._tabled(pos):
            pool = self._helpers(on_info)
            if pool is not None:
                return self._search_with(pool, pos, limits, on_info, stop, kwargs)
        if self._tt.mb != self.hash_mb:
            self._tt.resize(self.hash_mb)
        return self._search.run(pos, limits, on_info, stop, **kwargs)

    def _helpers(self, on_info: InfoCallback):
        """The helper pool for `threads`, started if need be; None (said once in an
        info string) where helper processes cannot run."""
        from canter.engine.search import smp

        if self._smp is not None and self._smp.tt.mb != self.hash_mb:
            self.close()
        if self._pool is None and self._no_helpers is None:
            try:
                if not smp.fork_available():
                    raise OSError("this platform cannot fork processes")
                from canter.engine.search.sharedtt import SharedTable

                self._smp = Search(SharedTable(self.hash_mb))
                self._smp.options = self._search.options
                self._pool = smp.HelperPool(self._threads - 1, self._smp.tt)
                self._smp.helper_nodes = self._pool.nodes
            except (OSError, ValueError) as exc:
                self.close()
                self._no_helpers = str(exc) or type(exc).__name__
                on_info(SearchInfo(string=f"Threads {self._threads} not available "
                                          f"({self._no_helpers}); searching with one"))
        return self._pool

    def _tabled(self, pos: Position) -> bool:
        """Whether the position has few enough pieces for an endgame table to hold it."""
        if self.tables is None:
            return False
        most = self.tables.max_pieces.get(pos.variant.name, 0)
        return Search._pieces(pos) <= most  # the count the search probes by

    def _search_with(self, pool, pos: Position, limits: Limits, on_info: InfoCallback,
                     stop: StopFlag, kwargs: dict) -> SearchResult:
        search = self._smp
        search.endings = self.tables  # the main search probes them; helpers do not
        if search.evaluators is not self._search.evaluators:
            search.evaluators = self._search.evaluators  # the same weights
        table = search.tt
        helper_kwargs = dict(kwargs, multipv=1)
        # The generation the main search is about to start (Search.run calls new_search).
        generation = (table.generation + 1) & 0xFFFF
        pool.start_job(pos, helper_kwargs, search.options, generation, limits.searchmoves)
        for event in pool.events:
            on_info(SearchInfo(string=event))
        pool.events.clear()
        try:
            result = search.run(pos, limits, on_info, stop, **kwargs)
        finally:
            pool.stop_job()
        done = result.info.depth if result.info is not None else None
        if result.best is None or done is None or kwargs["multipv"] > 1:
            return result
        moves = [m for m in pos.legal_moves()
                 if not limits.searchmoves or m in limits.searchmoves] or pos.legal_moves()
        deeper = pool.deeper(done, moves)
        if deeper is None:
            return result
        depth, move, score_cp, score_win = deeper
        info = SearchInfo(depth=depth, seldepth=depth, score_cp=score_cp, score_win=score_win,
                          nodes=search.nodes + pool.nodes(), time=result.info.time,
                          hashfull=result.info.hashfull, pv=[move])
        on_info(info)
        return SearchResult(move, None, info)

    def _from_proof(self, pos: Position, limits: Limits,
                    on_info: InfoCallback) -> SearchResult | list | None:
        """The proof's answer, if a shipped proof covers `pos` (and its move is allowed);
        else the root moves left to search when the proof shows that some lose (a list);
        else None."""
        if pos.variant.nseats != 2:
            return None
        from canter.engine.search.solve.solved import shipped_proof

        try:
            solved = shipped_proof(pos.variant.name)
        except ValueError:
            return None  # a damaged install: search instead
        if solved is None:
            return None
        pos = pos.copy()
        verdict = solved.verdict(pos)
        if verdict is None:
            return self._unlost(solved, pos, limits, on_info)
        if limits.searchmoves and verdict.move not in limits.searchmoves:
            return None
        winner = pos.variant.seats[verdict.winner].name
        mover = pos.variant.seats[pos.turn].name
        said = (f"{winner} wins" if verdict.winner == pos.turn
                else f"{mover} loses, {winner} wins")
        pv = solved.line(pos, limit=max(1, verdict.plies))
        info = SearchInfo(depth=verdict.plies, score_win=verdict.score_win(pos.turn), nodes=0,
                          time=0.0, pv=pv or [verdict.move],
                          string=f"solved: {said} within {verdict.plies} plies "
                                 "(shipped proof)")
        on_info(info)
        return SearchResult(verdict.move, pv[1] if len(pv) > 1 else None, info)

    @staticmethod
    def _unlost(solved, pos: Position, limits: Limits, on_info: InfoCallback) -> list | None:
        """The root moves the proof does not show to lose, when it shows that some do (and
        not all: with every move lost the position itself is proved, see `verdict`)."""
        moves = limits.searchmoves or pos.legal_moves()
        lost = solved.losing_moves(pos)
        if not lost:
            return None
        left = [m for m in moves if m not in lost]
        if not left:
            return None
        on_info(SearchInfo(string=f"solved: {len(lost)} of {len(pos.legal_moves())} moves "
                                  "lose by the shipped proof; searching the others"))
        return left

    def prepare(self, pos: Position) -> None:
        """Build what a search of this game builds at its first use (the evaluation and its
        pair-race tables), so that the first search of an ending does not spend its clock
        on it: for a protocol's `isready`, when nothing is being searched. The table is
        made at its `hash_mb` size here too: 4 GB takes a third of a second to allocate."""
        self._use_overrides()
        self._search.evaluator(pos).prepare()
        if self._tt.mb != self.hash_mb:
            self._tt.resize(self.hash_mb)

    def evaluate(self, pos: Position) -> tuple[int, str]:
        """The static score for the side to move, with a per-seat breakdown."""
        self._use_overrides()
        return self._search.evaluator(pos).explain(pos)

    def _use_overrides(self) -> None:
        """Hand `weights` to the search as its `w_<name>` options (the overrides its
        evaluator reads) and `switches` as options of their own names, dropping what was
        built or stored under other ones. Only the keys it set itself are replaced: options
        set directly (ablation matches) stay."""
        search = self._search
        wanted: dict[str, object] = {"w_" + k: v for k, v in self.weights.items()}
        wanted.update(self.switches)
        if wanted == self._applied:
            return
        for key in self._applied:
            search.options.pop(key, None)
        search.options.update(wanted)
        self._applied = wanted
        search.evaluators = {}  # built with the old weights
        search.clear()  # the table's scores came from them too
        if self._smp is not None:
            self._smp.evaluators = search.evaluators
            self._smp.clear()
            if self._pool is not None:
                self._pool.clear_pending = True
