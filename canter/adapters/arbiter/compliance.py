"""A scripted conformance run of the engine protocol
(docs/protocol.md) against any engine, one PASS/FAIL line per step, the engine's output
shown under a failure, exit code 1 if any step failed.

Every move the engine sends is judged with canter's rules. A step that leaves the engine
dead or stuck restarts it, so one fault does not fail every later step. A command that
cannot be started at all (no such file, not executable) fails the handshake step with the
reason; every later step is then skipped, reported as SKIP and counted as not run (the
exit code is 1). So is an engine that starts but fails the handshake (exits at once, never
answers `uci`, or answers it wrongly): nothing later can be judged without it, and an engine
that never answers would otherwise cost every step its timeout.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from canter.adapters.client.engine import (
    Engine,
    EngineDied,
    EngineError,
    EngineStalled,
    Limit,
    PlayResult,
)
from canter.engine import Position, format_move, get_variant, parse_move

# A Camelot position with one legal move (a compulsory capture that wins at once) and the
# position after it (decided: Black has no pieces left).
ONE_MOVE = "camelot 2/8/10/12/12/12/12/5b6/5w6/12/12/12/4w7/10/8/2 w 0,0 - - 0 30"
ONE_MOVE_ANSWER = "F8xF10"
DECIDED = "camelot 2/8/10/12/12/12/5w6/12/12/12/12/12/4w7/10/8/2 w 0,0 - b 0 31"
OPENING = ["D6-F8", "H11-F9"]




class StepFailed(Exception):
    pass


@dataclass
class StepResult:
    name: str
    passed: bool
    detail: str
    output: list[str]
    skipped: bool = False


class Compliance:
    def __init__(self, command: list[str], timeout: float = 5.0, cwd: str | None = None) -> None:
        self.command = command
        self.timeout = timeout
        self.cwd = cwd
        self.engine: Engine | None = None
        self.results: list[StepResult] = []
        self.unstartable: str | None = None  # why the command could not be started at all
        self.halted: str | None = None  # why later steps are not run (no usable engine)

    # ------------------------------------------------------------ helpers

    def start(self) -> Engine:
        self.engine = Engine.start(self.command, cwd=self.cwd, timeout=self.timeout,
                                   search_margin=self.timeout, log_limit=2000)
        return self.engine

    @property
    def e(self) -> Engine:
        if self.engine is None or not self.engine.alive:
            if self.engine is not None:
                self.engine.close()
            self.start()
        assert self.engine is not None
        return self.engine

    def legal(self, position: str, moves: list[str], answer: str | None, what: str,
              ponder: str | None = None) -> str:
        """Check `answer` is a legal move in the position, and `ponder` (the move the engine
        expects in reply) one after it; return the answer's canonical spelling."""
        pos = (Position.start(get_variant("camelot")) if position == "startpos"
               else Position.from_string(position))
        for m in moves:
            pos.push(parse_move(pos, m))
        if answer is None:
            raise StepFailed(f"{what}: bestmove (none) but the position has "
                             f"{len(pos.legal_moves())} legal moves")
        try:
            move = parse_move(pos, answer)
        except ValueError as exc:
            raise StepFailed(f"{what}: bestmove {answer} is illegal: {exc}") from None
        spelled = format_move(pos.variant, move)
        if ponder is not None:
            pos.push(move)
            try:
                parse_move(pos, ponder)
            except ValueError as exc:
                raise StepFailed(f"{what}: the ponder move {ponder} is illegal after "
                                 f"{spelled}: {exc}") from None
        return spelled

    def play(self, position: str, limit: Limit, moves: list[str] | None = None,
             timeout: float | None = None, **kw: object) -> PlayResult:
        return self.e.play(position, limit, moves=moves or [],
                           timeout=timeout if timeout is not None else self.timeout, **kw)

    def errors_after(self, action: Callable[[], None]) -> list[str]:
        """The `info string error` lines the engine prints for `action` (read up to the
        `readyok` of an isready sent after it)."""
        before = len(self.e.errors)
        action()
        self.e.ping()
        return self.e.errors[before:]

    def recover(self, stalled: bool = False) -> None:
        """Bring the engine back to rest after a failed step: stop a search left running,
        or restart a stuck process. An engine that stalled is restarted at once: the
        answer it held back may still come, and UCI cannot tell a late `readyok` from the
        next one, so the next step could pass on it."""
        engine = self.engine
        if engine is None:
            return
        if stalled:
            engine.close()
            self.engine = None
            return
        try:
            if engine.searching:
                engine.stop(timeout=1.0)
            if engine.alive:
                engine.ping(timeout=1.0)
                return
        except EngineError:
            pass
        engine.close()
        self.engine = None

    # ------------------------------------------------------------ the run

    def step(self, name: str, func: Callable[[], str]) -> StepResult:
        engine = self.engine
        mark = len(engine.log) if engine is not None else 0
        ignored = len(engine.ignored) if engine is not None else 0
        stalled = False
        first = engine.log[0] if engine is not None and engine.log else None
        try:
            detail = func()
            passed = True
            # The client passes over an info line it cannot read (as GUIs do); a
            # conformance run reports it.
            current = self.engine
            if current is not None:
                bad = current.ignored[ignored if current is engine else 0:]
                if bad:
                    raise StepFailed(f"malformed info line: {bad[0]}")
        except StepFailed as exc:
            detail, passed = str(exc), False
        except EngineDied as exc:
            if exc.step == "start" and exc.reason is not None:
                self.unstartable = exc.reason
                detail = f"cannot start the engine: {exc.reason}"
            else:
                detail = f"{type(exc).__name__}: {exc}"
            passed = False
        except EngineError as exc:
            detail, passed = f"{type(exc).__name__}: {exc}", False
            stalled = isinstance(exc, EngineStalled)
        except Exception as exc:  # the engine's output broke an assumption: a failure too
            detail, passed = f"{type(exc).__name__}: {exc}", False
        output: list[str] = []
        current = self.engine if self.engine is not None else engine
        if current is not None:
            records = list(current.log)
            # same process and log not rotated: show only this step's lines
            start = mark if current is engine and records and records[0] is first else 0
            output = [f"{r.direction} {r.line}" for r in records[start:]]
        if not passed:
            self.recover(stalled)
        result = StepResult(name, passed, detail, output[-40:])
        self.results.append(result)
        return result

    def steps(self) -> list[tuple[str, Callable[[], str]]]:
        return [
            ("handshake", self.s_handshake),
            ("options", self.s_options),
            ("setoption", self.s_setoption),
            ("isready", self.s_isready),
            ("ucinewgame", self.s_newgame),
            ("position startpos", self.s_startpos),
            ("position startpos moves", self.s_moves),
            ("position string", self.s_position_string),
            ("go depth", lambda: self.s_go("go depth 2", Limit(depth=2))),
            ("go nodes", lambda: self.s_go("go nodes 500", Limit(nodes=500))),
            ("go movetime", self.s_movetime),
            ("go clocks", self.s_clocks),
            # the protocol's hard limit with movestogo: 3 x left / movestogo (1.5 s here)
            ("go movestogo", lambda: self.s_go("go wtime/btime movestogo",
                                               Limit(times=(5, 5), movestogo=10), bound=1.8)),
            ("go mate", self.s_mate),
            ("go searchmoves", self.s_searchmoves),
            ("go infinite + stop", self.s_infinite),
            ("isready during search", self.s_isready_search),
            ("go ponder + ponderhit", self.s_ponder),
            ("stop with no search", self.s_idle_stop),
            ("terminal position", self.s_terminal),
            ("three seats", self.s_three),
            ("error: unknown command", self.s_err_unknown),
            ("error: illegal move in position", self.s_err_illegal),
            ("error: bad position string", self.s_err_string),
            ("error: bad go argument", self.s_err_go),
            ("error: unknown option", self.s_err_option),
            ("quit", self.s_quit),
        ]

    def run(self, echo: Callable[[str], None] | None = None) -> bool:
        for name, func in self.steps():
            if self.halted is not None:
                # every step would fail the same way: one clear failure, the rest not run
                result = StepResult(name, False, f"not run: {self.halted}", [], skipped=True)
                self.results.append(result)
            else:
                result = self.step(name, func)
                if name == "handshake" and not result.passed:
                    self.halted = ("the engine cannot be started" if self.unstartable
                                   is not None else "the handshake failed")
            if echo is not None and not result.skipped:
                echo(format_result(result))
        skipped = [r for r in self.results if r.skipped]
        if echo is not None and skipped:
            echo(f"SKIP  {len(skipped)} remaining step{'s' if len(skipped) != 1 else ''} "
                 f"({self.halted})")
        if self.engine is not None:
            self.engine.close()
        return all(r.passed for r in self.results)

    # ------------------------------------------------------------ the steps

    def s_handshake(self) -> str:
        started = time.monotonic()
        engine = self.start()
        took = time.monotonic() - started
        if "name" not in engine.id:
            raise StepFailed("no 'id name' line before uciok")
        return f"id name {engine.id['name']}, {len(engine.options)} options ({took:.3f} s)"

    def s_options(self) -> str:
        variant = self.e.options.get("uci_variant")
        if variant is None:
            raise StepFailed("no UCI_Variant option declared")
        if variant.type != "combo" or "camelot" not in [v.lower() for v in variant.var]:
            raise StepFailed(f"UCI_Variant must be a combo offering camelot, got {variant}")
        return ", ".join(o.name for o in self.e.options.values())

    def s_setoption(self) -> str:
        spin = next((o for o in self.e.options.values() if o.type == "spin"), None)
        settings: dict[str, object] = {"UCI_Variant": "camelot"}
        if spin is not None:
            settings[spin.name] = spin.default
        errors = self.errors_after(lambda: self.e.configure(settings))
        if errors:
            raise StepFailed(f"valid setoption refused: {errors[0]}")
        return ", ".join(f"{k}={v}" for k, v in settings.items())

    def s_isready(self) -> str:
        took = self.e.ping(timeout=self.timeout)
        return f"readyok in {1000 * took:.1f} ms"

    def s_newgame(self) -> str:
        self.e.new_game()
        return "ucinewgame, readyok"

    def s_startpos(self) -> str:
        r = self.play("startpos", Limit(depth=1))
        return "bestmove " + self.legal("startpos", [], r.move, "startpos", ponder=r.ponder)

    def s_moves(self) -> str:
        r = self.play("startpos", Limit(depth=1), OPENING)
        return "bestmove " + self.legal("startpos", OPENING, r.move, "after D6-F8 H11-F9",
                                        ponder=r.ponder)

    def s_position_string(self) -> str:
        r = self.play(ONE_MOVE, Limit(depth=1))
        move = self.legal(ONE_MOVE, [], r.move, "position string", ponder=r.ponder)
        if move != ONE_MOVE_ANSWER:
            raise StepFailed(f"the only legal move is {ONE_MOVE_ANSWER}, got {move}")
        return f"bestmove {move}"

    def s_go(self, what: str, limit: Limit, bound: float | None = None) -> str:
        r = self.play("startpos", limit, OPENING)
        move = self.legal("startpos", OPENING, r.move, what, ponder=r.ponder)
        if bound is not None and r.elapsed > bound:
            raise StepFailed(f"{what}: took {r.elapsed:.3f} s, more than {bound:.3f} s")
        return f"bestmove {move} in {r.elapsed:.3f} s"

    def s_movetime(self) -> str:
        r = self.play("startpos", Limit(movetime=0.3), OPENING)
        move = self.legal("startpos", OPENING, r.move, "go movetime 300", ponder=r.ponder)
        if r.elapsed > 0.3 + 0.2:
            raise StepFailed(f"go movetime 300 answered after {1000 * r.elapsed:.0f} ms")
        return f"bestmove {move} in {1000 * r.elapsed:.0f} ms"

    def s_clocks(self) -> str:
        limit = Limit(times=(1.0, 1.0), incs=(0.05, 0.05))
        r = self.play("startpos", limit, OPENING)
        move = self.legal("startpos", OPENING, r.move, "go wtime btime winc binc",
                          ponder=r.ponder)
        if r.elapsed > 1.0:
            raise StepFailed(f"with 1 s on the clock the engine took {r.elapsed:.3f} s")
        return f"bestmove {move} in {1000 * r.elapsed:.0f} ms"

    def s_mate(self) -> str:
        r = self.play(ONE_MOVE, Limit(mate=1))
        move = self.legal(ONE_MOVE, [], r.move, "go mate 1", ponder=r.ponder)
        if move != ONE_MOVE_ANSWER:
            raise StepFailed(f"the win in one is {ONE_MOVE_ANSWER}, got {move}")
        return f"bestmove {move}"

    def s_searchmoves(self) -> str:
        allowed = ["C6-B5", "J6-K7"]
        r = self.play("startpos", Limit(depth=1), searchmoves=allowed)
        move = self.legal("startpos", [], r.move, "go searchmoves", ponder=r.ponder)
        if move not in allowed:
            raise StepFailed(f"bestmove {move} is not one of searchmoves {' '.join(allowed)}")
        return f"bestmove {move}"

    def s_infinite(self) -> str:
        analysis = self.e.analysis("startpos", moves=OPENING)
        time.sleep(0.2)
        if analysis.done:
            raise StepFailed("bestmove before stop after go infinite")
        analysis.stop()
        started = time.monotonic()
        r = analysis.wait(timeout=1.0)
        took = time.monotonic() - started
        move = self.legal("startpos", OPENING, r.move, "go infinite", ponder=r.ponder)
        return f"bestmove {move} {1000 * took:.0f} ms after stop"

    def s_isready_search(self) -> str:
        analysis = self.e.analysis("startpos", moves=OPENING)
        took = self.e.ping(timeout=1.0)
        if analysis.done:
            raise StepFailed("the search ended before stop (bestmove after isready)")
        try:  # ending the search is the stop step's business, not this one's
            analysis.stop()
            analysis.wait(timeout=self.timeout)
        except EngineError:
            self.recover()
        return f"readyok during the search in {1000 * took:.1f} ms"

    def s_ponder(self) -> str:
        ponder = OPENING[:1]  # the position ends with the predicted move
        self.e.set_position("startpos", ponder)
        self.e.go_raw("go ponder wtime 1000 btime 1000", wait=False)
        # Longer than an engine that ignores `ponder` would think on these clocks (its hard
        # budget, a third of a second, or so), so its early bestmove is caught.
        time.sleep(0.5)
        self.e.ping(timeout=1.0)  # reads everything said so far, up to readyok
        if not self.e.searching:
            early = next(line for line in self.e.read_bestmove() if line.startswith("bestmove"))
            raise StepFailed(f"{early} before ponderhit")
        self.e.send("ponderhit")
        lines = self.e.read_bestmove(2.0)
        move, _ = _bestmove_of(lines)
        words = lines[-1].split()  # bestmove X [ponder Y]
        expected = words[3] if len(words) > 3 and words[2] == "ponder" else None
        return "bestmove " + self.legal("startpos", ponder, move, "go ponder + ponderhit",
                                        ponder=expected)

    def s_idle_stop(self) -> str:
        mark = len(self.e.log)
        errors = self.errors_after(lambda: self.e.send("stop"))
        if errors:
            raise StepFailed(f"stop with no search gave an error: {errors[0]}")
        if any(r.line.startswith("bestmove") for r in list(self.e.log)[mark:]):
            raise StepFailed("stop with no search printed a bestmove")
        return "ignored, readyok"

    def s_terminal(self) -> str:
        r = self.play(DECIDED, Limit(depth=1))
        if r.move is not None:
            raise StepFailed(f"the position is decided (white wins: black has no pieces "
                             f"left), but the engine answered bestmove {r.move}")
        return "bestmove (none)" + (f", result {r.outcome}" if r.outcome else "")

    def s_three(self) -> str:
        variant = self.e.options.get("uci_variant")
        if variant is None or "tri-camelot" not in [v.lower() for v in variant.var]:
            return "skipped: UCI_Variant does not offer tri-camelot"
        self.e.configure({"UCI_Variant": "tri-camelot"})
        try:
            self.e.new_game()
            r = self.play("startpos", Limit(times=(2.0, 2.0, 2.0), incs=(0.1, 0.1, 0.1)))
            pos = Position.start(get_variant("tri-camelot"))
            if r.move is None:
                raise StepFailed("bestmove (none) at the start of Tri-Camelot")
            try:
                move = format_move(pos.variant, parse_move(pos, r.move))
            except ValueError as exc:
                raise StepFailed(f"bestmove {r.move} is illegal in Tri-Camelot: {exc}") from None
            if r.errors:
                raise StepFailed(f"error lines for the three-seat clocks: {r.errors[0]}")
        finally:
            if self.engine is not None and self.engine.alive and not self.engine.searching:
                self.engine.configure({"UCI_Variant": "camelot"})
        return f"bestmove {move} with bluetime/redtime/greentime"

    def s_err_unknown(self) -> str:
        errors = self.errors_after(lambda: self.e.send("frobnicate now"))
        if not errors:
            raise StepFailed("no 'info string error' line for an unknown command")
        return errors[0]

    def s_err_illegal(self) -> str:
        kept = OPENING[:1]  # Black to move
        self.e.set_position("startpos", kept)
        errors = self.errors_after(
            lambda: self.e.set_position("startpos", [*OPENING, "C6-C11"]))
        if not errors:
            raise StepFailed("no 'info string error' line for an illegal move in position")
        # the previous position (Black to move) must still be the engine's
        move, _ = _bestmove_of(self.e.go_raw("go depth 1", timeout=self.timeout))
        self.legal("startpos", kept, move, "after the refused position, the previous one")
        return errors[0]

    def s_err_string(self) -> str:
        errors = self.errors_after(lambda: self.e.send("position camelot 2/8/zz w"))
        if not errors:
            raise StepFailed("no 'info string error' line for a malformed position string")
        return errors[0]

    def s_err_go(self) -> str:
        self.e.set_position("startpos", OPENING)
        lines = self.e.go_raw("go depth x movetime 200", timeout=self.timeout)
        move, errors = _bestmove_of(lines)
        if not errors:
            raise StepFailed("no 'info string error' line for 'go depth x'")
        self.legal("startpos", OPENING, move, "go depth x movetime 200")
        return errors[0]

    def s_err_option(self) -> str:
        errors = self.errors_after(lambda: self.e.send("setoption name No Such Option value 1"))
        if not errors:
            raise StepFailed("no 'info string error' line for an unknown option")
        return errors[0]

    def s_quit(self) -> str:
        engine = self.e
        started = time.monotonic()
        code = engine.quit(timeout=2.0)
        took = time.monotonic() - started
        if code != 0:
            raise StepFailed(f"quit: exit code {code} (expected 0) after {took:.3f} s")
        return f"exit code 0 in {1000 * took:.0f} ms"


def _bestmove_of(lines: list[str]) -> tuple[str | None, list[str]]:
    """The move of the `bestmove` ending a raw search's lines (None for `(none)`), and the
    texts of the `info string error:` lines before it."""
    errors = [line.split("error:", 1)[1].strip() for line in lines
              if line.split()[:3] == ["info", "string", "error:"]]
    words = lines[-1].split()
    if len(words) < 2:
        raise StepFailed("bestmove without a move")
    return (None if words[1] == "(none)" else words[1]), errors


def format_result(result: StepResult) -> str:
    mark = "PASS" if result.passed else "FAIL"
    text = f"{mark}  {result.name:<32} {result.detail}"
    if not result.passed and result.output:
        text += "\n      engine output:\n" + "\n".join(f"        {line}" for line in result.output)
    return text
