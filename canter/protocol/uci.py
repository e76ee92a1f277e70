"""The UCI-style dialect: UCI commands and answers over the session core.

Everything a client can get wrong is answered with one line `info string error: <why>` and
the engine carries on; that is the only error form of this dialect (docs/protocol.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from canter.engine.search.limits import Limits, SearchInfo
from canter.protocol import options as opt
from canter.protocol import referee
from canter.protocol.lines import INT_MAX, echo, error_text, parse_whole, split_at
from canter.protocol.output import Output
from canter.protocol.session import ProtocolError, Session, TimedCommands

ENGINE_NAME = "canter"
ENGINE_AUTHOR = "the canter developers"

GO_NUMBERS = ("depth", "nodes", "mate", "movetime", "movestogo")
GO_FLAGS = ("infinite", "ponder")
CAMELOT_CLOCKS = {"wtime": (0, "time"), "btime": (1, "time"), "winc": (0, "inc"),
                  "binc": (1, "inc")}

HELP = [
    "uci | isready | setoption name <name> [value <value>] | ucinewgame | quit",
    "position startpos|<position string> [moves <move> ...]",
    "go [searchmoves <move> ...] [ponder] [wtime|btime|winc|binc <ms>] "
    "[<seat>time|<seat>inc <ms>] [movestogo <n>] [depth <n>] [nodes <n>] [mate <n>] "
    "[movetime <ms>] [infinite]",
    "stop | ponderhit",
    "legal [<cell>|<move>] | result | getposition | board | pieces | turn | ranking | d "
    "| perft <depth> | go perft <depth> | eval | bench [<depth>] | help",
]

# Commands that take no arguments: extra ones are reported and the command is still carried
# out (a GUI waiting for `readyok` must get it). `debug` and `register` take anything.
NO_ARGUMENTS = frozenset({"uci", "isready", "ucinewgame", "stop", "ponderhit", "quit",
                          "result", "getposition", "d", "eval", "help", "board", "pieces",
                          "turn", "ranking"})


def format_score(info: SearchInfo) -> list[str]:
    if info.score_win is not None:
        parts = ["score", "mate", str(info.score_win)]
    elif info.score_cp is not None:
        parts = ["score", "cp", str(info.score_cp)]
    else:
        return []
    if info.bound == "lower":
        parts.append("lowerbound")
    elif info.bound == "upper":
        parts.append("upperbound")
    return parts


def format_info(info: SearchInfo, fmt: Callable[[object], str]) -> str:
    parts = ["info"]
    if info.depth is not None:
        parts += ["depth", str(info.depth)]
    if info.seldepth is not None:
        parts += ["seldepth", str(info.seldepth)]
    if info.multipv is not None:
        parts += ["multipv", str(info.multipv)]
    parts += format_score(info)
    if info.nodes is not None:
        parts += ["nodes", str(info.nodes)]
        if info.time:
            parts += ["nps", str(int(info.nodes / info.time))]
    if info.time is not None:
        parts += ["time", str(int(info.time * 1000))]
    if info.hashfull is not None:
        parts += ["hashfull", str(info.hashfull)]
    if info.tbhits is not None:
        parts += ["tbhits", str(info.tbhits)]
    if info.currmove is not None:
        parts += ["currmove", fmt(info.currmove)]
    if info.currmovenumber is not None:
        parts += ["currmovenumber", str(info.currmovenumber)]
    if info.pv:
        parts += ["pv", *(fmt(m) for m in info.pv)]
    if info.string:
        parts += ["string", " ".join(info.string.split())]
    return " ".join(parts)


class UciDialect(TimedCommands):
    name = "uci"

    def __init__(self, session: Session, out: Output) -> None:
        self.session = session
        self.out = out
        self.commands: dict[str, Callable[[list[str]], bool | None]] = {
            "uci": self.cmd_uci, "isready": self.cmd_isready, "setoption": self.cmd_setoption,
            "ucinewgame": self.cmd_ucinewgame, "position": self.cmd_position,
            "go": self.cmd_go, "stop": self.cmd_stop, "ponderhit": self.cmd_ponderhit,
            "quit": self.cmd_quit, "debug": self.cmd_ignored, "register": self.cmd_ignored,
            "legal": self.cmd_legal, "result": self.cmd_result,
            "getposition": self.cmd_getposition, "d": self.cmd_d, "perft": self.cmd_perft,
            "board": self.cmd_board, "pieces": self.cmd_pieces, "turn": self.cmd_turn,
            "ranking": self.cmd_ranking,
            "eval": self.cmd_eval, "bench": self.cmd_bench, "help": self.cmd_help,
            "xboard": self.cmd_xboard,
        }

    # ---- plumbing ---------------------------------------------------------------------
    def error(self, message: str) -> None:
        self.out.line("info string error: " + error_text(message))

    def input_error(self, message: str) -> None:
        """A line refused before it became a command (e.g. too long)."""
        self.error(message)


    def _handle(self, tokens: list[str]) -> bool:
        word = tokens[0].lower()
        command = self.commands.get(word)
        if command is None:
            self.error(f"unknown command '{echo(tokens[0])}' (send 'help' for the list)")
            return True
        if word in NO_ARGUMENTS and len(tokens) > 1:
            self.error(f"{word} takes no arguments; '{echo(' '.join(tokens[1:]))}' ignored")
        try:
            return command(tokens[1:]) is not False
        except ProtocolError as exc:
            self.error(str(exc))
            return True

    def close(self, eof: bool) -> None:
        """End of the session. At end of input a search with a finite limit finishes and
        answers; one without (bare `go`, infinite, ponder) is stopped and answers at once.
        `quit` stops any search; either way exactly one bestmove per `go`."""
        if eof:
            self.session.wait_search(self.out.reader_gone)
        else:
            self.session.stop_search()
        self.session.close()

    # ---- handshake and options ------------------------------------------------------------
    def cmd_uci(self, args: list[str]) -> None:
        from canter import __version__

        lines = [f"id name {ENGINE_NAME} {__version__}", f"id author {ENGINE_AUTHOR}"]
        lines += [self.option_line(spec) for spec in self.session.option_specs()]
        lines.append("uciok")
        self.out.lines(lines)

    def option_line(self, spec: opt.OptionSpec) -> str:
        parts = ["option", "name", spec.name, "type", spec.kind]
        if spec.kind == opt.BUTTON:
            return " ".join(parts)
        default = spec.default
        if spec.kind == opt.CHECK:
            default = "true" if default else "false"
        parts += ["default", str(default) if default != "" else "<empty>"]
        if spec.kind == opt.SPIN:
            parts += ["min", str(spec.min), "max", str(spec.max)]
        for choice in spec.choices:
            parts += ["var", choice]
        return " ".join(parts)

    def cmd_isready(self, args: list[str]) -> None:
        self.session.prepare()
        self.out.line("readyok")

    def cmd_setoption(self, args: list[str]) -> None:
        if not args or args[0].lower() != "name":
            raise ProtocolError("setoption needs: setoption name <name> [value <value>]")
        name_tokens, value_tokens = split_at(args[1:], "value")
        if not name_tokens:
            raise ProtocolError("setoption: the option name is missing")
        value = " ".join(value_tokens) if value_tokens is not None else None
        for warning in self.session.set_option(" ".join(name_tokens), value):
            self.out.line("info string warning: " + warning)

    def cmd_ignored(self, args: list[str]) -> None:
        """`debug`, `register`: accepted; canter has nothing to switch or register."""

    def cmd_xboard(self, args: list[str]) -> None:
        raise ProtocolError("the CECP dialect is chosen only by a first command 'xboard' "
                            "(and only in builds that include it); this session speaks UCI")

    # ---- game state ---------------------------------------------------------------------------
    def cmd_ucinewgame(self, args: list[str]) -> None:
        self.session.new_game()

    def cmd_position(self, args: list[str]) -> None:
        if not args:
            raise ProtocolError("position needs 'startpos' or a position string")
        head = args[0].lower()
        if head == "startpos":
            rest = args[1:]
            if rest and rest[0].lower() != "moves":
                raise ProtocolError(f"position rejected: expected 'moves' after 'startpos', "
                                    f"not '{echo(rest[0])}'")
            base, moves = None, rest[1:]
        else:
            body = args[1:] if head == "fen" else args
            body, moves = split_at(body, "moves")
            if not body:
                raise ProtocolError("position rejected: the position string is missing")
            base = " ".join(body)
        self.session.set_position(base, moves or [])

    # ---- search -------------------------------------------------------------------------------
    def parse_go(self, args: list[str]) -> Limits:
        """Limits from `go` arguments. A bad part is reported and skipped, never fatal: every
        `go` gets its bestmove."""
        limits = Limits()
        variant = self.session.position.variant
        seats = {s.name: i for i, s in enumerate(variant.seats)}
        keywords = set(GO_NUMBERS) | set(GO_FLAGS) | set(CAMELOT_CLOCKS) | {"searchmoves"}
        keywords |= {name + suffix for name in seats for suffix in ("time", "inc")}
        i = 0
        while i < len(args):
            word = args[i].lower()
            i += 1
            if word in GO_FLAGS:
                setattr(limits, word, True)
                continue
            if word == "searchmoves":
                texts = []
                while i < len(args) and args[i].lower() not in keywords:
                    texts.append(args[i])
                    i += 1
                moves, errors = self.session.parse_moves(texts)
                for message in errors:
                    self.error(message)
                if not texts:
                    self.error("go: searchmoves without moves ignored")
                limits.searchmoves = (limits.searchmoves or []) + moves or None
                continue
            clock = self._clock_keyword(word, variant, seats)
            if clock is None and word not in GO_NUMBERS:
                shown = echo(args[i - 1])
                if i < len(args) and args[i].lower() not in keywords and _is_int(args[i]):
                    shown += " " + echo(args[i])  # its value goes with it
                    i += 1
                self.error(f"go: unknown keyword '{shown}' ignored")
                continue
            if clock == "wrong-variant":
                names = ", ".join(f"{n}time {n}inc" for n in seats)
                self.error(f"go: '{word}' is a Camelot clock keyword; in {variant.name} use "
                           f"{names}")
                if i < len(args) and args[i].lower() not in keywords:
                    i += 1
                continue
            if i >= len(args) or args[i].lower() in keywords:
                self.error(f"go: '{word}' needs a number")
                continue
            text = args[i]
            i += 1
            try:
                number = parse_whole(text)
            except ValueError:
                self.error(f"go: '{word}' needs a whole number, not '{echo(text)}'")
                continue
            except OverflowError:
                self.error(f"go: '{word}' takes at most {INT_MAX}, not '{echo(text)}'")
                continue
            if clock is not None:
                seat, kind = clock
                getattr(limits, kind)[seat] = max(0, number) / 1000
            elif word == "movetime":
                limits.movetime = max(0, number) / 1000
            elif number < 1:
                self.error(f"go: '{word}' needs a number of at least 1")
            else:
                setattr(limits, word, number)
        return limits

    @staticmethod
    def _clock_keyword(word: str, variant, seats: dict[str, int]):
        for suffix, kind in (("time", "time"), ("inc", "inc")):
            if word.endswith(suffix) and word[: -len(suffix)] in seats:
                return seats[word[: -len(suffix)]], kind
        if word in CAMELOT_CLOCKS:
            if variant.nseats != 2:
                return "wrong-variant"
            return CAMELOT_CLOCKS[word]
        return None

    def cmd_go(self, args: list[str]) -> None:
        if args and args[0].lower() == "perft":
            # Stockfish's spelling of `perft N`: the same answer, and no search (so no
            # bestmove), refused during a search like perft itself.
            self._perft(args[1:], "go perft")
            return
        session = self.session
        session.stop_search()  # a go during a search: the old one is answered first
        limits = self.parse_go(args)
        variant = session.position.variant  # bound now: `position` may come during the search

        def fmt_move(move) -> str:
            from canter.engine import format_move

            return format_move(variant, move)

        def on_info(info: SearchInfo) -> None:
            self.out.line(format_info(info, fmt_move))

        def on_done(best, ponder) -> None:
            line = "bestmove " + (fmt_move(best) if best is not None else "(none)")
            if ponder is not None:
                line += " ponder " + fmt_move(ponder)
            self.out.line(line)

        if not session.start_search(limits, on_info, on_done, self.error, self.received):
            outcome = session.outcome()
            text = outcome.text() if outcome is not None else "no legal move"
            self.out.line(f"info string result {text}")
            if limits.ponder or limits.infinite:
                # Answered, as a search would be, only when told: stop, or ponderhit.
                session.hold_answer("ponder" if limits.ponder else "infinite", on_done)
            else:
                self.out.line("bestmove (none)")

    def cmd_stop(self, args: list[str]) -> None:
        self.session.stop_search()  # nothing to stop is fine: stop often races bestmove

    def cmd_ponderhit(self, args: list[str]) -> None:
        if not self.session.ponderhit(received=self.received):
            raise ProtocolError("ponderhit ignored: no ponder search is running")

    def cmd_quit(self, args: list[str]) -> bool:
        return False

    # ---- referee and diagnostics ------------------------------------------------------------
    def cmd_legal(self, args: list[str]) -> None:
        if len(args) > 1:
            raise ProtocolError("legal takes at most one cell or move")
        moves = self.session.legal_texts(args[0] if args else None)
        self.out.line(" ".join(["legal", *moves]))

    def cmd_result(self, args: list[str]) -> None:
        pos = self.session.position
        outcome = pos.outcome()
        if outcome is not None:
            self.out.line("result " + outcome.text())
        elif pos.rules.repetition == "claim" and pos.can_claim_draw():
            self.out.line("result none claimable")
        else:
            self.out.line("result none")

    def cmd_getposition(self, args: list[str]) -> None:
        self.out.line("position " + self.session.position_string())

    def cmd_board(self, args: list[str]) -> None:
        self.out.line(referee.board_line(self.session.position.variant))

    def cmd_pieces(self, args: list[str]) -> None:
        self.out.line(referee.pieces_line(self.session.position))

    def cmd_turn(self, args: list[str]) -> None:
        self.out.line(referee.turn_line(self.session.position))

    def cmd_ranking(self, args: list[str]) -> None:
        self.out.line(referee.ranking_line(self.session.position))

    def cmd_d(self, args: list[str]) -> None:
        session = self.session
        pos = session.position
        lines = ["info string " + row for row in session.board_lines()]
        outcome = pos.outcome()
        status = f"result {outcome.text()}" if outcome else \
            f"turn {pos.variant.seats[pos.turn].name}"
        lines.append("info string " + status)
        lines.append("position " + session.position_string())
        self.out.lines(lines)

    def _depth_arg(self, args: list[str], command: str, required: bool,
                   cap: int) -> int | None:
        if not args:
            if required:
                raise ProtocolError(f"{command} needs a depth")
            return None
        if len(args) > 1:
            raise ProtocolError(f"{command} takes one number")
        try:
            depth = parse_whole(args[0])
        except ValueError:
            raise ProtocolError(f"{command}: depth must be a whole number, "
                                f"not '{echo(args[0])}'") from None
        except OverflowError:
            depth = cap + 1
        if depth < 0:
            raise ProtocolError(f"{command}: depth must not be negative")
        if depth > cap:
            raise ProtocolError(f"{command}: depth must be at most {cap}, "
                                f"not '{echo(args[0])}'")
        return depth

    def cmd_perft(self, args: list[str]) -> None:
        self._perft(args, "perft")

    def _perft(self, args: list[str], command: str) -> None:
        from canter.protocol.session import MAX_PERFT_DEPTH

        depth = self._depth_arg(args, command, required=True, cap=MAX_PERFT_DEPTH)
        started = time.perf_counter()
        rows, total = self.session.perft(depth)
        elapsed = time.perf_counter() - started
        lines = [f"divide {move} {count}" for move, count in rows]
        nps = int(total / elapsed) if elapsed > 0 else 0
        lines.append(f"perft {depth} nodes {total} time {int(elapsed * 1000)} nps {nps}")
        self.out.lines(lines)

    def cmd_eval(self, args: list[str]) -> None:
        outcome = self.session.outcome()
        if outcome is not None:
            self.out.lines([f"info string result {outcome.text()}", "eval none"])
            return
        score, text = self.session.evaluate()
        lines = ["info string " + " ".join(row.split()) for row in text.splitlines()
                 if row.strip()]
        lines.append(f"eval cp {score}")
        self.out.lines(lines)

    def cmd_bench(self, args: list[str]) -> None:
        from canter.engine.search.alphabeta import MAX_DEPTH
        from canter.engine.search.bench import run_bench

        depth = self._depth_arg(args, "bench", required=False, cap=MAX_DEPTH)
        if self.session.searching:
            raise ProtocolError("bench refused: a search is running (send stop first)")
        result = run_bench(depth)
        nps = int(result.nodes / result.seconds) if result.seconds > 0 else 0
        self.out.line(f"bench nodes {result.nodes} time {int(result.seconds * 1000)} "
                      f"nps {nps}")

    def cmd_help(self, args: list[str]) -> None:
        self.out.lines(["info string " + line for line in HELP])


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True
