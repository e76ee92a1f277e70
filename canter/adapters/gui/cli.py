"""`canter gui`: the board in the browser (docs/gui.md)."""

from __future__ import annotations

import atexit
import html
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import webbrowser
from pathlib import Path

import click

from canter.adapters.gui.table import MAX_MOVETIME, MIN_MOVETIME
from canter.adapters.params import Seconds

LOOPBACK = ("127.0.0.1", "localhost", "::1")


class SecondsUpTo(Seconds):
    """Seconds from `low` to `high`: a value the board would refuse is refused here, as
    a bad option, before any engine starts."""

    def __init__(self, low: float, high: float) -> None:
        super().__init__(low, low_open=False)
        self.high = high

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        seconds = super().convert(value, param, ctx)
        if seconds > self.high:
            self.fail(f"{value} seconds: at most {self.high:g}", param, ctx)
        return seconds


@click.command(name="gui")
@click.option("--engine", "engine_texts", multiple=True, metavar="COMMAND",
              help="An engine command line, repeatable; the page chooses among them by "
                   "number for each seat and for analysis. Default: this canter.")
@click.option("--variant", default="camelot", show_default=True,
              help="The game to set up first (any game the referee knows).")
@click.option("--human", "human_text", metavar="SEATS",
              help="Seats played by people: seat names separated by ',', 'all' or 'none'. "
                   "Default: the first seat.")
@click.option("--movetime", type=SecondsUpTo(MIN_MOVETIME, MAX_MOVETIME),
              help=f"Engine seats' time per move in seconds, {MIN_MOVETIME:g} to "
                   f"{MAX_MOVETIME:g} (default 1).")
@click.option("--depth", type=click.IntRange(1, 60), help="Engine seats' search depth.")
@click.option("--rule", "rule_texts", multiple=True, metavar="NAME=VALUE",
              help="A rules option for the referee (and the engines that have it), e.g. "
                   "'Repetition=claim' (then a third repetition may be claimed as a draw). "
                   "Repeatable; see docs/rules.md for the options.")
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port to listen on; 0 picks a free one.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but the loopback address lets other "
                   "machines reach the board (they still need the token).")
@click.option("--no-browser", is_flag=True, help="Print the address; do not open a browser.")
@click.option("--watch", "watch_path", metavar="FILE",
              help="Follow a game-record file as it is written (e.g. by canter match "
                   "--pgn FILE): its last game is shown and updated live.")
def gui(engine_texts: tuple[str, ...], variant: str, human_text: str | None,
        movetime: float | None, depth: int | None, rule_texts: tuple[str, ...], port: int,
        host: str, no_browser: bool, watch_path: str | None) -> None:
    """Play, watch and analyse in the browser.

    Starts a local web server and opens the board in the default browser. Every legal
    move, position and result on the page comes from engine processes over canter's
    protocol: a canter process referees, and the seats' engines may be any protocol
    engine. The printed address carries a token that only this run knows. Ctrl-C stops
    the server and its engines.
    """
    from canter.adapters.client import EngineError
    from canter.adapters.gui import engines as eng
    from canter.adapters.gui import records
    from canter.adapters.gui.server import Board, run_in_thread, serve
    from canter.adapters.gui.table import Table, TableError
    from canter.adapters.gui.workers import Analyser, Mover, Ticker

    if watch_path is not None:
        _check_watched(watch_path)
    if not host.strip():  # ('' would listen on every interface, and print no address)
        raise click.BadParameter("empty: give an address (127.0.0.1 for this machine only, "
                                 "0.0.0.0 for every interface)", param_hint="'--host'")
    if human_text is not None and not human_text.replace(",", "").strip():
        raise click.BadParameter("no seat named: give seat names, 'all' or 'none'",
                                 param_hint="'--human'")
    slots = []
    try:
        commands = [eng.split_command(t) for t in engine_texts] or [eng.canter_command()]
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--engine'") from None
    try:
        referee = eng.start_referee()
    except EngineError as exc:
        raise click.ClickException(f"the referee (canter) did not start: {exc}") from None
    try:
        for index, command in enumerate(commands):
            slot = eng.EngineSlot(index, command)
            slots.append(slot)
            try:
                slot.process("play")
            except EngineError as exc:
                raise click.ClickException(
                    f"engine {index} ({' '.join(command)[:80]}) did not start: {exc}") from None
        rules = _rules(rule_texts)
        try:
            referee.configure(rules)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="'--rule'") from None
        table = Table(referee, slots, variant)
        table.rule_options = rules
        if variant.lower() not in table.variants:
            raise click.BadParameter(f"'{variant}': the referee knows "
                                     f"{', '.join(table.variants)}", param_hint="'--variant'")
        limit: dict[str, float] = {}
        if depth is not None:
            limit["depth"] = depth
        if movetime is not None or not limit:
            limit["movetime"] = movetime if movetime is not None else 1.0
        with table.lock:
            table.learn_variants()
            table.new_game(variant.lower(), None, None)
            names = [s.name for s in table.seats]
            humans = _humans(human_text, names)
            seats = [{"player": "human" if n in humans else "engine", "engine": 0,
                      "limit": limit} for n in names]
            table.new_game(variant.lower(), None, seats)
        analyser = Analyser(table)
        watcher = records.Watcher(table, watch_path, analyser.follow) if watch_path else None
        board = Board(table, analyser, watcher)
        try:
            server = serve(board, host, port)
        except OSError as exc:
            raise click.ClickException(f"cannot listen on {host}:{port}: "
                                       f"{exc.strerror or exc}") from None
        if host not in LOOPBACK:
            click.echo(f"Warning: listening on {host}: other machines can reach this board "
                       "(the token still guards it)", err=True)
        shown = f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{server.server_address[1]}/?token={board.token}"
        for worker in (Mover(table), Ticker(table)):
            worker.start()
        if watcher is not None:
            # The first look, before the address is printed (a game the referee refuses
            # is shown on the board, as later ones are). One that fails otherwise ends
            # the run with one error line, not a traceback.
            try:
                watcher.poll()
            except Exception as exc:
                raise click.ClickException(
                    f"--watch {watch_path}: {type(exc).__name__}: {exc}") from None
            watcher.start()
        run_in_thread(server)
        click.echo(f"canter gui: {url}")
        click.echo("Press Ctrl-C to stop.")
        sys.stdout.flush()
        if not no_browser:
            launcher = _launch_page(url)
            threading.Thread(target=webbrowser.open, args=(launcher.as_uri(),),
                             daemon=True).start()
        signal.signal(signal.SIGTERM, _interrupt)  # stop as on Ctrl-C: engines quit cleanly
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            click.echo("canter gui: stopped", err=True)
        finally:
            with table.lock:
                table.closed = True
                table.changed.notify_all()
            server.shutdown()
            server.server_close()
    except TableError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        try:
            for slot in slots:
                slot.close()
            try:
                referee.quit(timeout=2.0)
            except EngineError:
                referee.close()
        except KeyboardInterrupt:  # a second Ctrl-C: no more waiting, every process killed
            for slot in slots:
                slot.kill()
            referee.close()


def _launch_page(url: str) -> Path:
    """A private file that sends the browser on to the board. The browser is started with
    this file's path, not the address: a command line is visible to every user of the
    machine, and the address carries the token. Deleted when canter gui ends."""
    folder = Path(tempfile.mkdtemp(prefix="canter-gui-"))  # mode 0700
    page = folder / "open.html"
    fd = os.open(page, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(f'<!DOCTYPE html><meta charset="utf-8"><meta http-equiv="refresh" '
                f'content="0; url={html.escape(url)}"><title>canter</title>'
                f'<a href="{html.escape(url)}">Open the canter board</a>\n')
    atexit.register(shutil.rmtree, folder, True)
    return page


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _rules(texts: tuple[str, ...]) -> dict[str, object]:
    rules: dict[str, object] = {}
    for text in texts:
        name, sep, value = text.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"'{text}' is not NAME=VALUE", param_hint="'--rule'")
        name = name.strip()
        if not name.lower().startswith("rule "):
            name = "Rule " + name
        rules[name] = value.strip()
    return rules


def _check_watched(path: str) -> None:
    """Before serving: a file to watch must be one; one that already holds something must
    be game records (a match not yet begun leaves it empty), else the page would only show
    the error."""
    from canter.adapters.gui import records
    from canter.adapters.gui.table import TableError

    if not os.path.lexists(path):
        # A match started just before (`canter match ... --pgn FILE &`) may not have made
        # its file yet: the board waits for it, if it can ever appear there.
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise click.BadParameter(f"'{path}': no folder {folder}", param_hint="'--watch'")
        click.echo(f"{path} does not exist yet: the board waits for it", err=True)
        return
    if not os.path.isfile(path):
        raise click.BadParameter(f"'{path}' is not a file", param_hint="'--watch'")
    try:
        with open(path, "rb") as f:
            data = f.read(records.MAX_WATCHED_BYTES + 1)
    except OSError as exc:
        raise click.BadParameter(f"'{path}': {exc.strerror or exc}",
                                 param_hint="'--watch'") from None
    if not data.strip():
        return
    try:
        games = records.parse_records(data, unterminated=True,
                                      limit=records.MAX_WATCHED_BYTES)
    except TableError as exc:
        raise click.BadParameter(f"'{path}': {exc}", param_hint="'--watch'") from None
    if not any(g.tags or g.moves for g in games):
        raise click.BadParameter(f"'{path}': not a game-record file (no tags, no moves)",
                                 param_hint="'--watch'")


def _humans(text: str | None, names: list[str]) -> set[str]:
    if text is None:
        return {names[0]}
    words = {w.strip().lower() for w in text.split(",") if w.strip()}
    if words == {"all"}:
        return set(names)
    if words == {"none"}:
        return set()
    unknown = words - set(names)
    if unknown:
        raise click.BadParameter(f"no seat {', '.join(sorted(unknown))} (the seats are "
                                 f"{', '.join(names)}, or all, none)", param_hint="'--human'")
    return words
