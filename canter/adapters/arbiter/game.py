"""Playing one game between engine processes, judged by canter's rules.

Every move an engine sends is checked with `canter.engine.parse_move`; the end of the game
is what `Position.outcome()` says, never what an engine claims. Anything an engine does
wrong ends the game as a loss for that seat, with a termination and a reason:

    time forfeit    the clock (or fixed time per move) exceeded by more than the margin
    illegal move    a move the rules refuse, or `bestmove (none)` with moves left
    crash           the process ended (exit code or signal in the reason), closed its
                    output, or could not be started again
    stall           no `readyok` to `isready`, or no `bestmove` without any clock
    protocol error  malformed output, or the engine refused a position the rules accept

In Tri-Camelot the faulting seat is ranked last and the other two share first place; in a
team game (Grand Cam) the faulting seat's team forfeits and the other team wins. The
faulting engine is closed; its pool starts a fresh process for the next game.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from canter.adapters.arbiter.engines import EngineSpec
from canter.adapters.arbiter.log import EngineLog
from canter.adapters.arbiter.openings import Opening
from canter.adapters.arbiter.tc import Clocks, TimeControl
from canter.adapters.client.engine import (
    Engine,
    EngineDied,
    EngineError,
    EngineProtocolError,
    EngineStalled,
    LogRecord,
    PlayResult,
    exit_text,
)
from canter.adapters.records.format import GameRecord, result_from_ranking, score_text
from canter.adapters.text import count
from canter.engine import NotationError, format_move, parse_move

# Seconds to keep waiting for a `bestmove` after the clock has run out, so the overrun
# can be reported exactly when the engine is merely slow.
OVERRUN_GRACE = 1.0
MATE_CP = 100_000


@dataclass
class Player:
    """An engine taking part: how to start it and the limits of its searches."""

    spec: EngineSpec
    control: TimeControl
    margin: float  # seconds a search may exceed its time before it loses on time

    @property
    def name(self) -> str:
        return self.spec.name


@dataclass
class Adjudication:
    """`maxplies`: draw once that many plies are played (0: off). `resign_*`: a seat whose
    own score stays at or below -resign_score (cp) for resign_moves consecutive moves loses
    (with `resign_twosided`, another seat's score must agree: the opponent's, for three
    seats at least one of the others', in a team game one of the other team's); three
    seats: it is ranked last, the others share first place.
    `draw_*`: from full move `draw_movenumber` on, a draw once every seat's score stayed
    within +-draw_score for draw_moves consecutive moves."""

    maxplies: int = 0
    resign_moves: int = 0
    resign_score: int = 0
    resign_twosided: bool = False
    draw_movenumber: int = 0
    draw_moves: int = 0
    draw_score: int = 0


@dataclass
class Settings:
    variant: str
    adjudication: Adjudication = field(default_factory=Adjudication)
    ready_timeout: float = 10.0  # isready / handshake
    search_timeout: float = 60.0  # a search with no clock: after this it is a stall
    event: str = "canter match"
    site: str = "?"


@dataclass
class GameResult:
    number: int
    record: GameRecord
    ranking: list[list[int]]  # seats, best first
    termination: str
    reason: str
    fault_seat: int | None = None
    plies: int = 0
    wall: float = 0.0  # seconds from the first go to the end
    engine_time: float = 0.0  # seconds between go and bestmove, all seats


class GameAborted(Exception):
    """The run is being interrupted; the game is dropped (it will be replayed)."""


class EnginePool:
    """The engine processes of one worker thread, one per player, kept between games."""

    def __init__(self, settings: Settings, registry: EngineRegistry | None = None,
                 log: EngineLog | None = None) -> None:
        self.settings = settings
        self.engines: dict[str, Engine] = {}
        self.registry = registry
        self.log = log
        self.game: int | None = None  # the game being played, for the I/O log

    def get(self, player: Player) -> Engine:
        engine = self.engines.get(player.name)
        if engine is not None and engine.alive:
            return engine
        if engine is not None:
            self.discard(player)
        engine = Engine.start(
            player.spec.command,
            cwd=player.spec.cwd,
            name=player.name,
            timeout=self.settings.ready_timeout,
            log_limit=200,
            on_line=None if self.log is None else self._log_line,
            new_session=True,  # a Ctrl-C is the arbiter's to handle (docs/client.md)
        )
        if self.registry is not None:
            self.registry.add(engine)
        try:
            options: dict[str, object] = {}
            if "uci_variant" in engine.options:
                options["UCI_Variant"] = self.settings.variant
            options.update(player.spec.options)
            engine.configure(options)
        except BaseException:
            self._close(engine)
            raise
        self.engines[player.name] = engine
        return engine

    def _log_line(self, record: LogRecord) -> None:
        assert self.log is not None
        self.log.write(self.game, record)

    def discard(self, player: Player) -> None:
        engine = self.engines.pop(player.name, None)
        if engine is not None:
            self._close(engine)

    def _close(self, engine: Engine) -> None:
        engine.close()
        if self.registry is not None:
            self.registry.remove(engine)

    def close(self) -> None:
        self.game = None
        for engine in list(self.engines.values()):
            try:
                engine.quit(timeout=1.0)
            except EngineError:
                pass
            self._close(engine)
        self.engines.clear()


class EngineRegistry:
    """Every running engine process, so an interrupt can kill them all at once (which
    also wakes workers blocked reading from them)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._engines: set[Engine] = set()

    def add(self, engine: Engine) -> None:
        with self._lock:
            self._engines.add(engine)

    def remove(self, engine: Engine) -> None:
        with self._lock:
            self._engines.discard(engine)

    def kill_all(self) -> None:
        with self._lock:
            engines = list(self._engines)
        for engine in engines:
            engine.kill()


class _Fault(Exception):
    def __init__(self, seat: int, termination: str, reason: str) -> None:
        super().__init__(reason)
        self.seat = seat
        self.termination = termination
        self.reason = reason


def _cp(result: PlayResult) -> int | None:
    score = result.info.score
    if score is None:
        return None
    if score.win is not None:
        return MATE_CP if score.win > 0 else -MATE_CP
    return score.cp


def _seconds(x: float, places: int = 3) -> str:
    return f"{x:.{places}f} s"


def _places(x: float) -> int:
    """Decimal places that show `x` (a positive time) as more than zero: 3 (milliseconds)
    unless it is smaller, up to 9 (the clocks' nanoseconds)."""
    if x <= 0 or x >= 0.0005:
        return 3
    return min(9, max(3, math.ceil(-math.log10(x))))


def _died(name: str, when: str, exit_code: int | None) -> str:
    """The reason for an engine that died `when` ("while searching"): its exit code, the
    signal that killed it (a negative code), or, with no code, that it closed its output
    while its process still runs."""
    if exit_code is None:
        return f"{name} closed its output {when} (its process still runs)"
    if exit_code < 0:
        return f"{name} was {exit_text(exit_code)} {when}"
    return f"{name} crashed {when} ({exit_text(exit_code)})"


def play_game(
    number: int,
    players: list[Player],
    opening: Opening,
    settings: Settings,
    pool: EnginePool,
    abort: threading.Event | None = None,
) -> GameResult:
    """Play one game, `players[seat]` in each seat. Faults become results, an option an
    engine refuses too (the run's preflight has stopped a bad option= before any game);
    only GameAborted (the run is stopping) and bugs escape."""
    pool.game = number
    pos = opening.start(settings.variant)
    variant = pos.variant
    seat_names = [s.name for s in variant.seats]
    controls = [p.control for p in players]
    tcs = {c.text() for c in controls}
    record = GameRecord.new(
        settings.variant,
        [p.name for p in players],
        event=settings.event,
        site=settings.site,
        date=time.strftime("%Y.%m.%d"),
        round=str(number),
        position=opening.position,
        time_control=tcs.pop() if len(tcs) == 1 else " / ".join(c.text() for c in controls),
    )
    for text in opening.moves:
        record.add_move(text, text="book")
    position_arg = opening.position or "startpos"
    moves = list(opening.moves)
    clocks = Clocks(controls)
    scores: list[list[int | None]] = [[] for _ in players]
    engine_time = 0.0
    started = time.monotonic()

    def end(ranking: list[list[int]], termination: str, reason: str,
            fault: int | None = None) -> GameResult:
        record.set_result(result_from_ranking(ranking, len(players)),
                          termination=termination, reason=reason)
        if len(players) > 2:
            record.tags["Ranking"] = " > ".join(
                " = ".join(seat_names[s] for s in group) for group in ranking)
        return GameResult(number, record, ranking, termination, reason, fault,
                          len(record.moves), time.monotonic() - started, engine_time)

    def losing(seat: int) -> list[list[int]]:
        """The ranking when `seat` loses outside the rules: last, or with its team."""
        if variant.is_team_game:
            mine = list(variant.partners[seat])
            return [[s for s in range(len(players)) if s not in mine], mine]
        return [[s for s in range(len(players)) if s != seat], [seat]]

    def forfeit(fault: _Fault) -> GameResult:
        pool.discard(players[fault.seat])
        if abort is not None and abort.is_set():
            raise GameAborted
        reason = fault.reason
        if variant.is_team_game:
            reason += f"; {' and '.join(seat_names[s] for s in variant.partners[fault.seat])}" \
                      " forfeit"
        return end(losing(fault.seat), fault.termination, reason, fault.seat)

    # start and ready every engine (a fault here loses before the first move)
    engines: list[Engine] = []
    for seat, player in enumerate(players):
        try:
            engine = pool.get(player)
            engine.new_game(timeout=settings.ready_timeout)
        except ValueError as exc:
            # A bad option= is the operator's mistake, stopped by the preflight before any
            # game (Arbiter.preflight, check_workers). Refused here, the engine took it
            # then and declares otherwise now (a restart after a crash): the engine's fault.
            return forfeit(_Fault(seat, "crash", f"{seat_names[seat]} could not be started "
                                  f"again: {exc}"))
        except EngineError as exc:
            return forfeit(_start_fault(seat, seat_names[seat], exc, settings.ready_timeout))
        engines.append(engine)

    adj = settings.adjudication
    while True:
        if abort is not None and abort.is_set():
            raise GameAborted
        outcome = pos.outcome()
        if outcome is not None:
            return end([list(g) for g in outcome.ranking], "normal", outcome.text())
        if adj.maxplies and len(moves) >= adj.maxplies:
            return end([list(range(len(players)))], "max plies",
                       f"draw by adjudication: {count(adj.maxplies, 'ply')} played")
        seat = pos.turn
        name = seat_names[seat]
        player = players[seat]
        engine = engines[seat]
        limit = clocks.limit(seat)
        allowed = clocks.allowed(seat)
        timeout = (
            settings.search_timeout if allowed is None
            else max(0.0, allowed) + player.margin + OVERRUN_GRACE
        )
        try:
            result = engine.play(position_arg, limit, moves=moves, timeout=timeout)
        except EngineStalled as exc:
            if allowed is not None:
                fault = _Fault(seat, "time forfeit",
                               f"{name} loses on time: no bestmove after "
                               f"{_seconds(exc.elapsed)} with {_seconds(allowed)} left "
                               f"(over by more than {_seconds(exc.elapsed - allowed)})")
            else:
                fault = _Fault(seat, "stall", f"{name} stalled: no bestmove within "
                               f"{_seconds(exc.elapsed)} (go {' '.join(limit.go_arguments())})")
            return forfeit(fault)
        except EngineDied as exc:
            return forfeit(_Fault(seat, "crash",
                                  _died(name, "while searching", exc.exit_code)))
        except EngineProtocolError as exc:
            return forfeit(_Fault(seat, "protocol error",
                                  f"{name} sent malformed output: {exc.line[:80]!r} "
                                  f"({exc.reason})"))
        engine_time += result.elapsed
        if allowed is not None and result.elapsed > allowed + player.margin:
            over = result.elapsed - allowed
            # (an overrun under a millisecond would read `over by 0.000 s`)
            places = _places(over)
            return forfeit(_Fault(seat, "time forfeit",
                                  f"{name} loses on time: took "
                                  f"{_seconds(result.elapsed, places)} with "
                                  f"{_seconds(allowed, places)} left (over by "
                                  f"{_seconds(over, places)})"))
        rejected = [e for e in result.errors if e.startswith("position rejected")]
        if rejected:
            return forfeit(_Fault(seat, "protocol error",
                                  f"{name} refused a legal position: {rejected[0][:120]}"))
        if result.move is None:
            legal = count(len(pos.legal_moves()), "legal move")
            claim = f" (it says: {result.outcome})" if result.outcome else ""
            return forfeit(_Fault(seat, "illegal move",
                                  f"{name} answered bestmove (none) with {legal}{claim}"))
        try:
            move = parse_move(pos, result.move)
        except (NotationError, ValueError) as exc:
            why = getattr(exc, "reason", None) or str(exc)
            return forfeit(_Fault(seat, "illegal move",
                                  f"{name} played an illegal move {result.move}: {why}"))
        pos.push(move)
        text = format_move(variant, move)
        moves.append(text)
        clocks.charge(seat, result.elapsed)
        cp = _cp(result)
        info = result.info
        record.add_move(
            text,
            score=(score_text(cp=info.score.cp, win=info.score.win)
                   if info.score is not None else None),
            depth=info.depth if info.score is not None else None,
            time=round(result.elapsed, 3),
        )
        scores[seat].append(cp)
        verdict = _adjudicate(adj, scores, seat, len(moves), seat_names, variant.team_of)
        if verdict is not None:
            ranking, reason = verdict
            if variant.is_team_game and len(ranking) > 1:
                ranking = losing(seat)  # a resignation is the team's
            return end(ranking, "adjudication", reason)


def _start_fault(seat: int, name: str, exc: EngineError, timeout: float) -> _Fault:
    if isinstance(exc, EngineStalled):
        what = {"isready": "readyok", "handshake": "uciok"}.get(exc.step, exc.step)
        return _Fault(seat, "stall", f"{name} stalled: no {what} within {_seconds(timeout)}")
    if isinstance(exc, EngineDied):
        if exc.step == "start":
            detail = exc.reason or (exc.tail[-1] if exc.tail else "unknown reason")
            return _Fault(seat, "crash", f"{name} could not be started: {detail}")
        return _Fault(seat, "crash", _died(name, f"during {exc.step}", exc.exit_code))
    if isinstance(exc, EngineProtocolError):
        return _Fault(seat, "protocol error",
                      f"{name} sent malformed output during {exc.step}: {exc.line[:80]!r} "
                      f"({exc.reason})")
    return _Fault(seat, "crash", f"{name}: {exc}")


def _adjudicate(
    adj: Adjudication, scores: list[list[int | None]], seat: int, plies: int,
    seat_names: list[str], team_of: Sequence[int] = (),
) -> tuple[list[list[int]], str] | None:
    """`team_of`: each seat's team (the variant's); empty, every seat alone."""
    nseats = len(scores)
    team = list(team_of) or list(range(nseats))
    if adj.resign_moves:
        own = scores[seat][-adj.resign_moves:]
        others = [s for s in range(nseats) if s != seat]
        # a partner's score says nothing against its own team: only an opponent agrees
        opponents = [s for s in others if team[s] != team[seat]]
        losing = len(own) == adj.resign_moves and all(
            s is not None and s <= -adj.resign_score for s in own)

        def winning(other: int) -> bool:
            recent = scores[other][-adj.resign_moves:]
            return len(recent) == adj.resign_moves and all(
                s is not None and s >= adj.resign_score for s in recent)

        # two seats: the opponent must agree; three: at least one other seat; a team
        # game: a seat of the other team
        agreed = not adj.resign_twosided or any(winning(o) for o in opponents)
        if losing and agreed:
            # three seats: the rules know no resignation and the game between the other
            # two is undecided, so they share first place (as after a fault)
            return ([others, [seat]],
                    f"{seat_names[seat]} resigns by adjudication: score at or below "
                    f"{-adj.resign_score / 100:+.2f} for {count(adj.resign_moves, 'move')}")
    if adj.draw_moves and plies >= adj.draw_movenumber * nseats:
        recent = [s[-adj.draw_moves:] for s in scores]
        if all(len(r) == adj.draw_moves and all(x is not None and abs(x) <= adj.draw_score
                                                for x in r) for r in recent):
            return ([list(range(nseats))],
                    f"draw by adjudication: every score within "
                    f"+-{adj.draw_score / 100:.2f} for {count(adj.draw_moves, 'move')}")
    return None
