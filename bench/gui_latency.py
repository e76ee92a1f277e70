"""Latency of `canter gui` in a real headless browser (issue 18): click -> highlighted
targets (goal < 50 ms) and human move -> the engine's reply on the page, without the
engine's thinking time (goal < 100 ms); and how many updates a flood of search info sends.

    python bench/gui_latency.py [--runs N] [--variant camelot|tri-camelot]

Needs Selenium and the system Chromium (/usr/bin/chromium, /usr/bin/chromedriver).

Method. `canter gui --no-browser` runs as a subprocess (tests/guiserver.py); the page is
opened in headless Chromium. The human holds the first seat; the other seats are an engine
that answers at once (tests/fake_engines/scripted.py: its `go` answers with the first legal
move, depth is ignored). Each run:

1. The script picks a piece of the human's with a legal move (asking the server, outside the
   timed part) and Selenium clicks it: a real, trusted click through the browser's input
   pipeline. A capturing listener in the page notes the click event's `timeStamp`; a
   MutationObserver notes when `body[data-targets]` names the piece, which the page sets
   right after it has drawn the targets (after GET /api/legal). "dom" is click -> that
   moment; "frame" is click -> the first task after the next animation frame, i.e. once the
   browser has had its chance to paint the targets.
2. Selenium clicks a target with a single move. The page POSTs the move, the server has the
   referee check it, the engine thinks, the referee checks the reply, and the new STATE
   reaches the page over server-sent events; "raw" is click -> `body[data-ply]` showing the
   reply's ply (set at the end of the render that draws it). The engine's own time is
   measured outside the page: the engine runs behind a relay (this script with --relay) that
   timestamps each `go` it forwards and each `bestmove` it reads back; "net" = raw - (that
   go -> bestmove time), i.e. everything but the engine: page, HTTP, server, referee, pipes.
   In Tri-Camelot the reply is the next seat's move; the run ends when the human is to move
   again. A game that ends is replaced by a new one (a move that ends it is not counted,
   nor are its targets). The first two runs warm up and are not
   counted.

All times of a figure come from one clock: the page's performance.now() (click, dom, frame,
raw) or the relay's perf_counter (engine time).

3. Throttling: a second engine (scripted.py with --infos 100000) floods the server with info
   lines while every seat is an engine. A direct /api/events reader counts the events and,
   from the `thinking.depth` they carry (the flood's N-th info line says depth N), the info
   lines the server received, over a few seconds; the page counts its renders too
   (`body[data-version]` changes). The server should publish at most ~8 updates a second.

Verdicts compare the p90 of each figure with its goal (the throttle: at most 10 events in
the busiest second). Exit status 1 if a goal is missed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from benchargs import positive_int  # noqa: E402
from guiserver import SCRIPTED, GuiServer  # noqa: E402

TARGET_GOAL_MS = 50.0
REPLY_GOAL_MS = 100.0
WARMUP = 2
FLOOD_INFOS = 100000
FLOOD_SECONDS = 4.0

# Installed once in the page: notes the last click and when the watched mark appears.
PROBE = """
const b = window.__bench = {want: null, value: null, click: null, dom: null, frame: null,
                            versions: 0};
window.addEventListener('click', (ev) => { b.click = ev.timeStamp; b.trusted = ev.isTrusted; },
                        true);
new MutationObserver((records) => {
  for (const r of records) {
    if (r.attributeName === 'data-version') b.versions += 1;
  }
  const d = document.body.dataset;
  const seen = b.want === 'targets' ? d.targets : b.want === 'ply' ? d.ply : undefined;
  if (b.want && b.dom === null && seen === b.value) {
    b.dom = performance.now();
    requestAnimationFrame(() => setTimeout(() => { b.frame = performance.now(); }, 0));
  }
}).observe(document.body, {attributes: true,
                           attributeFilter: ['data-targets', 'data-ply', 'data-version']});
"""

ARM = """
const b = window.__bench;
Object.assign(b, {want: arguments[0], value: arguments[1], click: null, dom: null, frame: null});
if (arguments[0] === 'targets') delete document.body.dataset.targets;
"""


# ---------------------------------------------------------------- the engine relay

def relay(log_path: str, command: list[str]) -> int:
    """Pass an engine's pipes through, noting when each `go` went in and `bestmove` came out."""
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, bufsize=1)
    assert child.stdin is not None and child.stdout is not None
    log = open(log_path, "a", buffering=1)  # noqa: SIM115 - lives as long as the relay
    lock = threading.Lock()

    def note(word: str, stamp: float) -> None:
        with lock:
            log.write(f"{word} {stamp:.6f}\n")

    def pump() -> None:
        for line in child.stdout:
            stamp = time.perf_counter()
            sys.stdout.write(line)
            sys.stdout.flush()
            if line.startswith("bestmove"):
                note("bestmove", stamp)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    for line in sys.stdin:
        child.stdin.write(line)
        child.stdin.flush()
        if line.startswith("go"):
            note("go", time.perf_counter())
    child.stdin.close()
    code = child.wait()
    reader.join(timeout=2.0)
    return code


def engine_times(log_path: Path, skip: int) -> tuple[list[float], int]:
    """The go -> bestmove times (ms) noted after the first `skip` lines, and the line count."""
    lines = log_path.read_text().splitlines()
    times: list[float] = []
    go: float | None = None
    for line in lines[skip:]:
        word, stamp = line.split()
        if word == "go":
            go = float(stamp)
        elif word == "bestmove" and go is not None:
            times.append((float(stamp) - go) * 1000.0)
            go = None
    return times, len(lines)


# ---------------------------------------------------------------- the browser

def browser() -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update",
                "--no-first-run", "--window-size=1280,900"]:
        options.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def wait_for(what: str, check: Any, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise SystemExit(f"gui_latency: timed out waiting for {what}")
        time.sleep(0.01)


def measured(driver: Any, what: str, server: GuiServer | None = None,
             ply: int = 0) -> dict[str, float] | None:
    """The marks of the last click; None if the game ended at `ply` (no reply will come)."""
    deadline = time.monotonic() + 20.0
    while True:
        probe = driver.execute_script(
            "const b = window.__bench; return b.frame !== null && b.click !== null ? b : null;")
        if probe:
            break
        if server is not None:
            state = server.state()
            if state["result"] is not None and len(state["moves"]) <= ply:
                return None
        if time.monotonic() > deadline:
            state = server.state() if server is not None else None
            detail = (f" (moves {len(state['moves'])}, result {state['result']}, "
                      f"fault {state['fault']})" if state else "")
            raise SystemExit(f"gui_latency: timed out waiting for {what}{detail}")
        time.sleep(0.01)
    return {"dom": probe["dom"] - probe["click"], "frame": probe["frame"] - probe["click"],
            "trusted": probe["trusted"]}


def click(driver: Any, selector: str) -> None:
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, selector).click()


# ---------------------------------------------------------------- one move

def choose_move(server: GuiServer, state: dict[str, Any],
                rng: random.Random) -> tuple[str, str] | None:
    """A piece of the side to move and a target cell that only one of its moves ends on."""
    turn = state["current"]["turn"]
    cells = [c for c, p in state["current"]["pieces"].items() if p["seat"] == turn]
    rng.shuffle(cells)
    for cell in cells:
        moves = server.get(f"/api/legal?cell={cell}")["moves"]
        ends: dict[str, int] = {}
        for move in moves:
            end = move.replace("x", "-").split("-")[-1]
            ends[end] = ends.get(end, 0) + 1
        single = [end for end, n in ends.items() if n == 1]
        if single:
            return cell, rng.choice(sorted(single))
    return None


def human_turn(server: GuiServer, driver: Any, human: str) -> dict[str, Any]:
    """Wait until the human is to move (or the game is over) and the page shows it."""
    state = server.wait(lambda s: s["result"] is not None or (
        s["current"]["turn"] == human and s["thinking"] is None), what="the human's turn")
    wait_for("the page to catch up", lambda: driver.execute_script(
        "return document.body.dataset.ply === arguments[0]", str(len(state["moves"]))))
    return state


def new_game(server: GuiServer, driver: Any, variant: str, seat_count: int) -> None:
    seats = [{"player": "human", "engine": 0, "limit": {"depth": 1}, "clock": None}]
    seats += [{"player": "engine", "engine": 0, "limit": {"depth": 1}, "clock": None}
              for _ in range(seat_count - 1)]
    server.post("/api/new", {"variant": variant, "seats": seats})


def latency(server: GuiServer, driver: Any, log: Path, variant: str, runs: int,
            seed: int) -> tuple[list[dict[str, float]], list[dict[str, float]]]:
    rng = random.Random(seed)
    state = server.state()
    names = state["variant_seats"][variant]
    human = names[0]
    new_game(server, driver, variant, len(names))
    targets: list[dict[str, float]] = []
    replies: list[dict[str, float]] = []
    logged = 0
    games = 1
    while len(replies) < runs + WARMUP:
        state = human_turn(server, driver, human)
        choice = None if state["result"] else choose_move(server, state, rng)
        if choice is None:
            new_game(server, driver, variant, len(names))
            games += 1
            continue
        cell, end = choice
        driver.execute_script(ARM, "targets", cell)
        click(driver, f'g.piece[data-cell="{cell}"]')
        shown = measured(driver, f"the targets of {cell}")
        assert shown is not None
        ply = len(state["moves"])
        _, logged = engine_times(log, 0)
        driver.execute_script(ARM, "ply", str(ply + 2))
        click(driver, f'circle.target[data-cell="{end}"]')
        reply = measured(driver, f"the reply to a move from {cell} to {end}", server, ply + 1)
        thought, logged = engine_times(log, logged)
        if reply is None:
            continue  # the human's move ended the game: nothing to time
        if not thought:
            raise SystemExit("gui_latency: the relay noted no engine search for the reply")
        reply["engine"] = thought[0]
        reply["net"] = reply["dom"] - thought[0]
        targets.append(shown)
        replies.append(reply)
    print(f"{variant}: {runs} runs (+{WARMUP} warm-up) in {games} game(s)")
    return targets[WARMUP:], replies[WARMUP:]


# ---------------------------------------------------------------- throttling

class EventCounter(threading.Thread):
    """Reads /api/events directly; keeps (time, thinking depth, moves) of every event."""

    def __init__(self, server: GuiServer) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.events: list[tuple[float, int | None, int]] = []
        self.conn = http.client.HTTPConnection(server.host, server.port, timeout=60)

    def run(self) -> None:
        self.conn.request("GET", f"/api/events?token={self.server.token}",
                          headers={"Host": f"{self.server.host}:{self.server.port}"})
        response = self.conn.getresponse()
        try:
            for raw in response:
                line = raw.decode()
                if line.startswith("data: "):
                    state = json.loads(line[6:])
                    thinking = state["thinking"] or {}
                    self.events.append((time.monotonic(), thinking.get("depth"),
                                        len(state["moves"])))
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        try:
            if self.conn.sock is not None:
                self.conn.sock.shutdown(2)
        except OSError:
            pass
        self.conn.close()


def throttling(server: GuiServer, driver: Any, variant: str) -> dict[str, float]:
    names = server.state()["variant_seats"][variant]
    counter = EventCounter(server)
    counter.start()
    time.sleep(0.5)  # the reader's first event is the current state
    versions0 = driver.execute_script("return window.__bench.versions")
    start = time.monotonic()
    seats = [{"player": "engine", "engine": 1, "limit": {"depth": 1}, "clock": None}
             for _ in names]
    server.post("/api/new", {"variant": variant, "seats": seats})
    time.sleep(FLOOD_SECONDS)
    elapsed = time.monotonic() - start
    versions = driver.execute_script("return window.__bench.versions") - versions0
    server.post("/api/pause")
    counter.close()
    events = [e for e in counter.events if e[0] >= start]
    # info lines received: each search's depth climbs 1, 2, ... (one per line)
    best: dict[int, int] = {}
    for _, depth, moves in events:
        if depth is not None:
            best[moves] = max(best.get(moves, 0), depth)
    infos = sum(best.values())
    # the busiest second of events
    stamps = [e[0] for e in events]
    peak = max((sum(1 for t in stamps if s <= t < s + 1.0) for s in stamps), default=0)
    return {"seconds": elapsed, "events": len(events), "page": versions, "infos": infos,
            "moves": events[-1][2] if events else 0, "peak": peak}


# ---------------------------------------------------------------- report

def row(name: str, values: list[float], goal: float | None) -> str:
    ordered = sorted(values)
    p90 = ordered[min(len(ordered) - 1, int(round(0.9 * (len(ordered) - 1))))]
    text = (f"{name:<34}{statistics.median(ordered):>9.1f}{p90:>9.1f}{ordered[-1]:>9.1f}")
    return text + (f"{goal:>9.0f}" if goal is not None else "")


def main() -> int:
    if len(sys.argv) > 3 and sys.argv[1] == "--relay":
        return relay(sys.argv[2], sys.argv[4:] if sys.argv[3] == "--" else sys.argv[3:])
    parser = argparse.ArgumentParser(
        description="Latency of canter gui in headless Chromium: click -> targets, "
                    "move -> reply (net of the engine), info throttling.")
    parser.add_argument("--runs", type=positive_int, default=30, help="measured moves (default 30)")
    parser.add_argument("--variant", default="camelot", choices=["camelot", "tri-camelot"])
    parser.add_argument("--seed", type=int, default=1, help="seed of the human's move choice")
    args = parser.parse_args()
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    began = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "engine.log"
        log.touch()
        fast = shlex.join([sys.executable, str(Path(__file__).resolve()), "--relay", str(log),
                           "--", sys.executable, str(SCRIPTED)])
        flood = shlex.join([sys.executable, str(SCRIPTED), "--infos", str(FLOOD_INFOS)])
        server = GuiServer("--engine", fast, "--engine", flood, "--variant", args.variant,
                           "--depth", "1")
        driver = None
        try:
            driver = browser()
            driver.get(server.url)
            wait_for("the page", lambda: driver.execute_script(
                "return document.body.dataset.version"))
            driver.execute_script(PROBE)
            targets, replies = latency(server, driver, log, args.variant, args.runs, args.seed)
            flooded = throttling(server, driver, args.variant)
        finally:
            if driver is not None:
                driver.quit()
            server.close()

    untrusted = sum(1 for m in targets + replies if not m["trusted"])
    print(f"{'ms':<34}{'median':>9}{'p90':>9}{'max':>9}{'goal':>9}")
    print(row("click -> targets in DOM", [m["dom"] for m in targets], TARGET_GOAL_MS))
    print(row("click -> targets, next frame", [m["frame"] for m in targets], None))
    print(row("move -> reply in DOM (raw)", [m["dom"] for m in replies], None))
    print(row("  engine go -> bestmove", [m["engine"] for m in replies], None))
    print(row("move -> reply, net of engine", [m["net"] for m in replies], REPLY_GOAL_MS))
    print(row("move -> reply, next frame (raw)", [m["frame"] for m in replies], None))
    if untrusted:
        print(f"warning: {untrusted} clicks were not trusted input events")
    rate = flooded["infos"] / flooded["seconds"]
    during = f"{flooded['moves']} moves" if flooded["moves"] else "within one search"
    print(f"info flood: ~{rate:.0f} info lines/s reached the server over "
          f"{flooded['seconds']:.1f} s ({during}); it sent "
          f"{flooded['events'] / flooded['seconds']:.1f} events/s (busiest second: "
          f"{flooded['peak']}), the page rendered {flooded['page'] / flooded['seconds']:.1f}/s")
    p90_target = sorted(m["dom"] for m in targets)[int(round(0.9 * (len(targets) - 1)))]
    p90_net = sorted(m["net"] for m in replies)[int(round(0.9 * (len(replies) - 1)))]
    verdicts = [
        ("targets", p90_target < TARGET_GOAL_MS, f"p90 {p90_target:.1f} ms < {TARGET_GOAL_MS:.0f}"),
        ("reply", p90_net < REPLY_GOAL_MS, f"p90 {p90_net:.1f} ms < {REPLY_GOAL_MS:.0f}"),
        ("throttle", flooded["peak"] <= 10, f"busiest second {flooded['peak']} events <= 10"),
    ]
    for name, ok, text in verdicts:
        print(f"{name:<9} {'PASS' if ok else 'FAIL'}  ({text})")
    print(f"total {time.monotonic() - began:.0f} s")
    return 0 if all(ok for _, ok, _ in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
