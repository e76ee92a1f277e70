#!/usr/bin/env python3
"""A tiny scripted engine speaking the canter protocol, for tests of clients and arbiters.

Well-behaved by default: answers `uci` (id, a few options, uciok), `isready`, `setoption`
(echoed back as `info string set NAME=VALUE`), `position`, `go` (a couple of info lines,
then bestmove), `go infinite` (bestmove only after `stop`), `quit`. Misbehaviour is asked
for on the command line; EVENT is a command word (uci, isready, setoption, ucinewgame,
position, go, stop, quit), optionally with `:N` for its N-th occurrence (default 1):

  --die-at EVENT[:N]        exit at once with --exit-code (default 3), before answering
  --hang-at EVENT[:N]       never answer again (sleeps, keeps the pipes open)
  --say-at EVENT[:N] TEXT   print TEXT instead of the normal answer (repeatable; a
                            literal backslash-n in TEXT separates lines)
  --delay SECONDS           think this long before each bestmove (to overrun a clock)
  --move MOVE               always answer bestmove MOVE (default: the first legal move by
                            canter's rules library, if it can be imported, else C6-C7)
  --illegal-at N            on the N-th go, answer an illegal (but well-formed) move
  --infos N                 info lines per search (default 2)
  --stderr TEXT             print TEXT on stderr at start-up
  --name NAME               id name (default "Scripted")
  --ignore-stop             never end a `go infinite` search (stop is not answered)
  --flood                   answer every go with info lines without end, never a bestmove
  --note-quit FILE          append a line to FILE when `quit` arrives

The default move's variant for `position startpos` is the UCI_Variant option (camelot
unless set), as in canter.
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def out(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def parse_event(spec: str) -> tuple[str, int]:
    word, _, count = spec.partition(":")
    return word.lower(), int(count) if count else 1


def legal_move(position_words: list[str], variant_name: str) -> str | None | bool:
    """First legal move by canter's rules library; False if the library is unavailable."""
    try:
        from canter.engine import Position, format_move, get_variant, parse_move
    except Exception:
        return False
    try:
        text = " ".join(position_words)
        moves: list[str] = []
        if " moves " in f" {text} ":
            text, _, rest = f" {text} ".partition(" moves ")
            moves = rest.split()
        text = text.strip()
        if text == "startpos":
            variant = get_variant(variant_name)
            pos = Position.start(variant)
        else:
            variant = get_variant(text.split()[0])
            pos = Position.from_string(text)
        for m in moves:
            pos.push(parse_move(pos, m))
        legal = pos.legal_moves()
        return format_move(variant, legal[0]) if legal else None
    except Exception:
        return False


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--die-at")
    ap.add_argument("--hang-at")
    ap.add_argument("--say-at", nargs=2, action="append", default=[], metavar=("EVENT", "TEXT"))
    ap.add_argument("--exit-code", type=int, default=3)
    ap.add_argument("--delay", type=float, default=0.0)
    ap.add_argument("--move")
    ap.add_argument("--illegal-at", type=int)
    ap.add_argument("--flood", action="store_true")
    ap.add_argument("--infos", type=int, default=2)
    ap.add_argument("--stderr")
    ap.add_argument("--name", default="Scripted")
    ap.add_argument("--ignore-stop", action="store_true")
    ap.add_argument("--note-quit")
    args = ap.parse_args()

    die = parse_event(args.die_at) if args.die_at else None
    hang = parse_event(args.hang_at) if args.hang_at else None
    say = {parse_event(event): text for event, text in args.say_at}
    counts: dict[str, int] = {}
    position_words: list[str] = ["startpos"]
    variant = "camelot"
    searching = False
    gos = 0

    if args.stderr:
        print(args.stderr, file=sys.stderr, flush=True)

    def bestmove() -> None:
        nonlocal gos
        if args.delay:
            time.sleep(args.delay)
        if args.illegal_at is not None and gos == args.illegal_at:
            out("bestmove A1-A2")
            return
        move: str | None | bool = args.move or legal_move(position_words, variant)
        if move is False:
            move = "C6-C7"
        out(f"bestmove {move if move else '(none)'}")

    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0].lower()
        counts[cmd] = counts.get(cmd, 0) + 1
        event = (cmd, counts[cmd])
        if die == event:
            return args.exit_code
        if hang == event:
            while True:
                time.sleep(3600)
        if event in say:
            out(say[event].replace("\\n", "\n"))  # a literal \n in TEXT starts a new line
            continue
        if cmd == "uci":
            out(f"id name {args.name}")
            out("id author canter tests")
            out("option name Hash type spin default 16 min 1 max 1024")
            out("option name Ponder type check default false")
            out("option name Style type combo default Normal var Solid var Normal var Wild")
            out("option name UCI_Variant type combo default camelot var camelot var tri-camelot")
            out("option name Book File type string default <empty>")
            out("option name Clear Hash type button")
            if os.environ.get("FAKE_ENGINE_REPORT"):
                # lets tests check the working directory and environment they asked for
                out(f"info string cwd={os.getcwd()} report={os.environ['FAKE_ENGINE_REPORT']}")
            out("uciok")
        elif cmd == "isready":
            out("readyok")
        elif cmd == "setoption":
            text = raw.strip()
            name, _, value = text[len("setoption name ") :].partition(" value ")
            if name.lower() == "uci_variant":
                variant = value.strip()
            out(f"info string set {name}={value}")
        elif cmd == "position":
            position_words = words[1:]
        elif cmd == "go":
            gos += 1
            count = 0
            while args.flood:  # (a write blocks while the reader's pipe is full)
                count += 1
                out(f"info depth 1 nodes {count} string still thinking")
            for depth in range(1, args.infos + 1):
                out(
                    f"info depth {depth} seldepth {depth + 1} score cp {10 * depth} "
                    f"nodes {100 * depth} nps 5000 time {depth} pv C6-C7 H11-H10"
                )
            if "infinite" in words:
                searching = True
            else:
                bestmove()
        elif cmd == "stop":
            if searching and not args.ignore_stop:
                searching = False
                bestmove()
        elif cmd == "quit":
            if args.note_quit:
                with open(args.note_quit, "a") as note:
                    note.write(f"quit {os.getpid()}\n")
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
