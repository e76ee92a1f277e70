"""A tiny scripted UCI-style engine for testing the transcript runner and recorder.

It knows no game: it answers a handful of commands in a fixed way, with a few extras that
let a test make it misbehave on purpose. Only the standard library, so it starts fast.

    uci            id name mini 1.2.3 / id author canter tests / one option / uciok
    isready        readyok
    go depth N     N info lines (time and nps vary from run to run), then bestmove A1-A2
    go nodes N     one info line with nodes N, then bestmove A1-A2
    go infinite    info lines every 20 ms until stop, then bestmove B2-B3
    go movetime N  bestmove after N ms, chosen at random (not deterministic)
    stop           ends a running search
    ping N         pong N (CECP's sync, for the recorder's wait for it)
    echo TEXT      prints TEXT as it is (tabs and inner spaces kept)
    sleep S        waits S seconds, then prints slept
    crash          exits with code 3 at once, saying nothing
    quit           exits with code 0 (so does the end of input)
    anything else  info string unknown command: ...

Options: --chatty prints a banner before being spoken to; --exit-code N is the code used
by quit and at the end of input; --slow-stop S makes a stopped search take S seconds more
to give its bestmove (as a loaded machine may); --lag S makes it wait S seconds before
answering each line (an engine slow to start, or on a loaded machine).
"""

from __future__ import annotations

import random
import sys
import threading
import time

lock = threading.Lock()
stop_search = threading.Event()
search: threading.Thread | None = None
slow_stop = 0.0


def say(text: str) -> None:
    with lock:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


def volatile() -> str:
    return f"nps {random.randint(1000, 999999)} time {random.randint(0, 50)}"


def run_infinite(stop: threading.Event) -> None:
    depth = 0
    while not stop.wait(0.02):
        depth += 1
        say(f"info depth {depth} nodes {depth * 7} {volatile()} hashfull {random.randint(0, 9)}")
    time.sleep(slow_stop)
    say("bestmove B2-B3")


def finish_search() -> None:
    global search
    if search is not None:
        stop_search.set()
        search.join()
        search = None


def stop_later() -> None:
    """`stop` with --slow-stop: the answer comes while later commands are read."""
    global search
    if search is not None:
        stop_search.set()
        search = None  # the stopped search ends by itself


def main() -> int:
    global search, stop_search, slow_stop
    args = sys.argv[1:]
    slow_stop = float(args[args.index("--slow-stop") + 1]) if "--slow-stop" in args else 0.0
    exit_code = int(args[args.index("--exit-code") + 1]) if "--exit-code" in args else 0
    lag = float(args[args.index("--lag") + 1]) if "--lag" in args else 0.0
    print("mini: started", file=sys.stderr, flush=True)
    if "--chatty" in args:
        say("mini engine ready to go")
    for raw in sys.stdin:
        line = raw.rstrip("\r\n")
        words = line.split()
        if not words:
            continue
        time.sleep(lag)
        command = words[0]
        if command == "uci":
            say("id name mini 1.2.3")
            say("id author canter tests")
            say("option name Hash type spin default 16 min 1 max 64")
            say("uciok")
        elif command == "isready":
            say("readyok")
        elif command == "go" and words[1:2] == ["depth"]:
            for depth in range(1, int(words[2]) + 1):
                say(f"info depth {depth} score cp {depth * 10} nodes {depth * 100} "
                    f"{volatile()} pv A1-A2")
            say("bestmove A1-A2")
        elif command == "go" and words[1:2] == ["nodes"]:
            say(f"info depth 1 nodes {words[2]} {volatile()} pv A1-A2")
            say("bestmove A1-A2")
        elif command == "go" and words[1:2] == ["infinite"]:
            stop_search = threading.Event()  # its own: a slow stop's search may still run
            search = threading.Thread(target=run_infinite, args=(stop_search,))
            search.start()
        elif command == "go" and words[1:2] == ["movetime"]:
            time.sleep(int(words[2]) / 1000)
            say("bestmove " + random.choice(["A1-A2", "C3-C4", "D5xD7"]))
        elif command == "stop":
            if slow_stop:
                stop_later()
            else:
                finish_search()
        elif command == "ping":
            say(" ".join(["pong", *words[1:2]]))
        elif command == "echo":
            say(line.split("echo ", 1)[1] if " " in line else "")
        elif command == "sleep":
            time.sleep(float(words[1]))
            say("slept")
        elif command == "crash":
            sys.stdout.flush()
            return 3
        elif command == "quit":
            finish_search()
            return exit_code
        else:
            say(f"info string unknown command: {command}")
    finish_search()
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
