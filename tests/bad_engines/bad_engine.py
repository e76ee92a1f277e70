#!/usr/bin/env python3
"""A scripted engine for arbiter and compliance tests: it plays the first legal move by
canter's rules (so a game goes on) and misbehaves exactly as asked.

Faults (N counts `go` or `isready` commands from the start of the process, from 1):
  --crash-at-go N        exit with --exit-code (default 7) on the N-th go, saying nothing
  --hang-at-go N         never answer the N-th go (nor anything after it)
  --flood-at-go N        answer the N-th go with info lines without end, never a bestmove
  --hang-at-isready N    never answer the N-th isready (nor anything after it)
  --illegal-at-go N      answer the N-th go with a well-formed illegal move
  --slow-at-go N         sleep --delay seconds (default 1.0) before the N-th bestmove
  --garbage-at-go N      answer the N-th go with noise and a malformed bestmove
  --stray-after-go N     after the N-th bestmove, write --stray LINE (default a second
                         `bestmove A1-A2`) unasked
  --illegal-chance P     answer a go with an illegal move with probability P, drawn from
                         --seed S (default 1) and the position: the same choice each run
Protocol breaches (for `canter compliance`):
  --ignore-stop          `stop` does not end `go infinite`/`go ponder` (quit still works)
  --late-isready         during a search, readyok waits until the search has ended
  --silent-errors        bad input gets no `info string error` line
  --move-when-over       a decided position gets a bestmove anyway, not `bestmove (none)`
  --bad-exit N           quit exits with code N
  --bad-ponder           every bestmove names an illegal ponder move (`ponder A1-A2`)
  --bad-info             every info line of a search has a depth that is not a number
  --ponder-timed S       `go ponder` is searched as a timed go: bestmove after S seconds,
                         without waiting for ponderhit (an engine that ignores `ponder`)
Other: --name NAME (id name, default "bad"); --score CP (the score its info lines report,
default 0: e.g. a hopeless -3000 for resign adjudication).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from canter.engine import (  # noqa: E402
    Position,
    PositionError,
    format_move,
    get_variant,
    parse_move,
)

lock = threading.Lock()


def out(line: str) -> None:
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def hang() -> None:
    while True:
        time.sleep(3600)


class Bad:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.variant = "camelot"
        self.pos = Position.start(get_variant(self.variant))
        self.gos = 0
        self.readies = 0
        self.searching = threading.Event()  # a go infinite / ponder runs
        self.search_over = threading.Event()
        self.pending_move: str | None = None

    def error(self, text: str) -> None:
        if not self.args.silent_errors:
            out(f"info string error: {text}")

    def best(self) -> str | None:
        if self.pos.outcome() is not None:
            return "C6-C7" if self.args.move_when_over else None
        moves = sorted(format_move(self.pos.variant, m) for m in self.pos.legal_moves())
        return moves[0] if moves else None

    def illegal(self) -> str:
        # a start cell of a legal move and an end cell already holding a piece of the mover
        move = self.pos.legal_moves()[0]
        v = self.pos.variant
        own = [c for c in self.pos.pieces(self.pos.turn) if c != move.start]
        return f"{v.cell_name(move.start)}-{v.cell_name(own[0])}"

    def position(self, words: list[str]) -> None:
        if not words:
            self.error("position: startpos or a position string expected")
            return
        if "moves" in words:
            cut = words.index("moves")
            base, moves = words[:cut], words[cut + 1 :]
        else:
            base, moves = words, []
        try:
            if base[0] == "startpos":
                pos = Position.start(get_variant(self.variant))
            else:
                if base[0] == "fen":
                    base = base[1:]
                pos = Position.from_string(" ".join(base))
        except (PositionError, ValueError, IndexError) as exc:
            self.error(f"position rejected: bad position string: {exc}")
            return
        for i, text in enumerate(moves, start=1):
            try:
                pos.push(parse_move(pos, text))
            except ValueError as exc:
                self.error(f"position rejected: move {i} ({text}): {exc}")
                return
        self.pos = pos

    def finish(self, move: str | None) -> None:
        outcome = self.pos.outcome()
        if move is None and outcome is not None:
            out(f"info string result {outcome.text()}")
        ponder = " ponder A1-A2" if move and self.args.bad_ponder else ""
        out(f"bestmove {move or '(none)'}{ponder}")

    def go(self, words: list[str]) -> None:
        a = self.args
        self.gos += 1
        n = self.gos
        if a.crash_at_go == n:
            sys.stdout.flush()
            os._exit(a.exit_code)
        if a.hang_at_go == n:
            hang()
        count = 0
        while a.flood_at_go == n:  # (a write blocks while the arbiter's pipe is full)
            count += 1
            out(f"info depth 1 nodes {count} string still thinking")
        known = {"depth", "nodes", "movetime", "mate", "movestogo", "wtime", "btime", "winc",
                 "binc", "bluetime", "redtime", "greentime", "blueinc", "redinc", "greeninc",
                 "whitetime", "blacktime", "whiteinc", "blackinc"}
        i = 0
        searchmoves: list[str] = []
        endless = ponder_timed = False
        while i < len(words):
            w = words[i].lower()
            if w == "ponder" and a.ponder_timed:
                ponder_timed = True
                i += 1
            elif w in ("infinite", "ponder"):
                endless = True
                i += 1
            elif w == "searchmoves":
                searchmoves = words[i + 1 :]
                break
            elif w in known:
                if i + 1 >= len(words) or not words[i + 1].lstrip("-").isdigit():
                    self.error(f"go: {w} needs a number")
                    i += 1
                else:
                    i += 2
            else:
                self.error(f"go: unknown keyword '{w}'")
                i += 1
        move = self.best()
        if searchmoves and self.pos.outcome() is None:
            allowed = []
            for text in searchmoves:
                try:
                    allowed.append(format_move(self.pos.variant, parse_move(self.pos, text)))
                except ValueError:
                    self.error(f"searchmoves: {text} is not legal")
            if allowed:
                move = sorted(allowed)[0]
        # decided by the position, so a restarted process makes the same choice
        draw = random.Random(f"{a.seed}:{self.pos.to_string()}").random()
        chance = a.illegal_chance and draw < a.illegal_chance
        if self.pos.outcome() is None and (a.illegal_at_go == n or chance):
            move = self.illegal()
        if a.garbage_at_go == n:
            out("%%% garbage ### 0xDEADBEEF")
            out("bestmove ???garbage???")
            return
        if a.slow_at_go == n:
            time.sleep(a.delay)
        if move is not None:
            depth = "one" if a.bad_info else "1"
            out(f"info depth {depth} score cp {a.score} nodes 1 pv {move}")
        if (endless or ponder_timed) and self.pos.outcome() is None:
            self.pending_move = move
            self.search_over.clear()
            self.searching.set()
            if ponder_timed:  # it answers by itself, still reading commands meanwhile
                threading.Timer(a.ponder_timed, self.stop).start()
            return
        self.finish(move)
        if a.stray_after_go == n:
            out(a.stray)

    def stop(self) -> None:
        if not self.searching.is_set() or self.args.ignore_stop:
            return
        self.searching.clear()
        self.finish(self.pending_move)
        self.search_over.set()

    def run(self) -> None:
        a = self.args
        for raw in sys.stdin:
            words = raw.split()
            if not words:
                continue
            cmd, rest = words[0].lower(), words[1:]
            if cmd == "uci":
                out(f"id name {a.name}")
                out("id author canter tests")
                out("option name UCI_Variant type combo default camelot var camelot "
                    "var tri-camelot var grand-cam")
                out("option name Hash type spin default 16 min 1 max 4096")
                out("uciok")
            elif cmd == "isready":
                self.readies += 1
                if a.hang_at_isready == self.readies:
                    hang()
                if a.late_isready and self.searching.is_set():
                    threading.Thread(target=self._late_ready, daemon=True).start()
                else:
                    out("readyok")
            elif cmd == "setoption":
                text = " ".join(rest)
                low = text.lower()
                if low.startswith("name uci_variant value "):
                    value = low.split()[-1]
                    if value in ("camelot", "tri-camelot", "grand-cam"):
                        self.variant = value
                        self.pos = Position.start(get_variant(value))
                    else:
                        self.error("option 'UCI_Variant' takes camelot, tri-camelot or "
                                   "grand-cam")
                elif low.startswith("name hash value "):
                    value = low.split()[-1]
                    if not value.isdigit() or not 1 <= int(value) <= 4096:
                        self.error("option 'Hash' takes 1 to 4096")
                else:
                    self.error(f"unknown option '{text[5:].split(' value')[0]}'")
            elif cmd == "ucinewgame":
                self.pos = Position.start(get_variant(self.variant))
            elif cmd == "position":
                self.position(rest)
            elif cmd == "go":
                self.go(rest)
            elif cmd in ("stop", "ponderhit"):
                self.stop()
            elif cmd == "quit":
                sys.stdout.flush()
                os._exit(a.bad_exit)
            elif cmd in ("debug", "register"):
                pass
            else:
                self.error(f"unknown command '{cmd}'")
        os._exit(0)

    def _late_ready(self) -> None:
        self.search_over.wait()
        out("readyok")


def main() -> None:
    p = argparse.ArgumentParser()
    for flag in ("crash-at-go", "hang-at-go", "hang-at-isready", "illegal-at-go",
                 "slow-at-go", "garbage-at-go", "flood-at-go", "stray-after-go"):
        p.add_argument(f"--{flag}", type=int, default=0)
    p.add_argument("--delay", type=float, default=1.0)
    p.add_argument("--stray", default="bestmove A1-A2")
    p.add_argument("--ponder-timed", type=float, default=0.0)
    p.add_argument("--illegal-chance", type=float, default=0.0)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--score", type=int, default=0)
    p.add_argument("--exit-code", type=int, default=7)
    p.add_argument("--bad-exit", type=int, default=0)
    for flag in ("ignore-stop", "late-isready", "silent-errors", "move-when-over",
                 "bad-ponder", "bad-info"):
        p.add_argument(f"--{flag}", action="store_true")
    p.add_argument("--name", default="bad")
    Bad(p.parse_args()).run()


if __name__ == "__main__":
    main()
