"""`canter match`, `canter tournament` and `canter compliance`: the arbiter's command line
(docs/arbiter.md, docs/protocol.md)."""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import signal
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import click

from canter.adapters.arbiter.cutechess import ArbiterCommand, cutechess_help
from canter.adapters.arbiter.engines import (
    EngineSpec,
    Field,
    parse_engine_spec,
    parse_fields,
    spec_from_fields,
    unique_names,
)
from canter.adapters.arbiter.tc import MIN_SECONDS, TimeControl
from canter.adapters.params import Seconds, variant_option
from canter.adapters.text import count

if TYPE_CHECKING:
    from canter.adapters.arbiter.game import Player
    from canter.adapters.arbiter.openings import Opening



def seats_of(variant: str) -> int:
    from canter.engine import get_variant

    return get_variant(variant).nseats


MAX_GAMES = 1_000_000  # games of one run, all encounters together
MAX_SPRT_ELO = 1000  # beyond it an Elo is a certainty, and its score overflows


def _team_of(variant: str) -> tuple[int, ...]:
    """The team of each seat in a team game, else ()."""
    from canter.engine import get_variant

    v = get_variant(variant)
    return v.team_of if v.is_team_game else ()



def _fields(text: str, what: str, known: dict[str, type],
            least: dict[str, int] | None = None) -> dict[str, Any]:
    """`key=value key=value` -> dict, converted by the types in `known`; a whole number
    is at most 9 digits and at least `least[key]` when given; a key given twice, or no
    key at all, is refused."""
    out: dict[str, Any] = {}
    for word in text.split():
        key, eq, value = word.partition("=")
        key = key.lower()
        if not eq or key not in known:
            raise click.BadParameter(
                f"{word[:40]!r}: expected key=value with key one of {', '.join(known)}",
                param_hint=what)
        if key in out:
            raise click.BadParameter(f"{key} given twice", param_hint=what)
        kind = known[key]
        try:
            if kind is bool:
                if value.lower() not in ("true", "false", "1", "0", "yes", "no"):
                    raise ValueError("not true/false")
                out[key] = value.lower() in ("true", "1", "yes")
            elif kind is int:
                if not re.fullmatch(r"-?\d{1,9}", value):
                    raise ValueError("not a whole number of at most 9 digits")
                out[key] = int(value)
                low = (least or {}).get(key)
                if low is not None and out[key] < low:
                    raise ValueError(f"must be at least {low}")
            else:
                out[key] = kind(value)
        except ValueError as exc:
            raise click.BadParameter(f"{word[:40]!r}: {exc}", param_hint=what) from None
    if not out:
        raise click.BadParameter("empty: give key=value fields", param_hint=what)
    return out


def common_options(func: Callable[..., Any]) -> Callable[..., Any]:
    options = [
        click.option("--engine", "engines", multiple=True, metavar="FIELDS",
                     help="An engine: 'cmd=COMMAND [name=N] [dir=D] [option.NAME=V] [tc=..] "
                          "[st=S] [depth=D] [nodes=N] [timemargin=MS] [arg=WORD]', one "
                          "string or one field per word (repeat per engine). An option name "
                          "may contain spaces: option.Move Overhead=50."),
        click.option("--each", "each", multiple=True, metavar="FIELDS",
                     help="Fields for every engine (cutechess-cli's -each); an engine's own "
                          "fields win."),
        variant_option("The game; each has its number of seats (tri-camelot: three)."),
        click.option("--tc", default=None, metavar="TC",
                     help="Clock for every engine: MOVES/TIME+INC, TIME+INC (s or m:ss), inf."),
        # (sent in whole milliseconds: less than one would be `movetime 0`)
        click.option("--st", type=Seconds(MIN_SECONDS, low_open=False), default=None,
                     metavar="SECONDS",
                     help="Fixed time per move (go movetime), at least 0.001."),
        click.option("--depth", type=click.IntRange(1), default=None, help="Depth per move."),
        click.option("--nodes", type=click.IntRange(1), default=None, help="Nodes per move."),
        click.option("--timemargin", type=click.IntRange(0), default=0, show_default=True,
                     metavar="MS", help="Milliseconds a search may overrun before losing on time."),
        click.option("--concurrency", type=click.IntRange(1), default=1, show_default=True,
                     help="Games played at once."),
        click.option("--openings", "openings_file", default=None, metavar="FILE|none",
                     help="Start points: position strings or move sequences, one per line. "
                          "Default: the built-in book of the variant (Tri-Camelot 100 "
                          "three-move starts, Grand Cam 50 four-move starts, the others 50 "
                          "two-move starts); 'none': the start position only."),
        click.option("--opening-order", type=click.Choice(["sequential", "random"]),
                     default="sequential", show_default=True,
                     help="The openings in the file's order, or shuffled by --seed."),
        click.option("--seed", type=int, default=1, show_default=True,
                     help="Seed of the random opening order (keep it to resume)."),
        click.option("--all-orders", is_flag=True,
                     help="Three or four seats: play every seat order, not only the "
                          "rotations."),
        click.option("--teams", is_flag=True,
                     help="Team games (grand-cam): each engine plays both seats of a team, "
                          "two engines per game, each on either side."),
        click.option("--maxplies", type=click.IntRange(0), default=0, metavar="N",
                     help="Adjudicate a draw after N plies (0: off)."),
        click.option("--resign", default=None, metavar="'movecount=N score=CP [twosided=B]'",
                     help="A seat whose score stays <= -CP for N moves loses (3 seats: last)."),
        click.option("--draw", default=None, metavar="'movenumber=N movecount=N score=CP'",
                     help="Adjudicate a draw when every score stays within +-CP for N moves."),
        click.option("--pgn", default=None, metavar="FILE",
                     help="Game records, appended as games end; an existing file is resumed."),
        click.option("--json", "json_path", default=None, metavar="FILE",
                     help="Write a machine-readable summary at the end."),
        click.option("--log", "log_path", default=None, metavar="FILE",
                     help="Append every line exchanged with the engines (time, game, "
                          "engine, direction) to FILE."),
        click.option("--event", default=None, help="Event tag of the records."),
        click.option("--cluster", default=None, metavar="ADDRESS",
                     help="Play the games as tasks on a Dask cluster: a scheduler address "
                          "(tcp://host:8786) or local:N (N worker processes on this machine). "
                          "Needs pip install 'canter[cluster]'. See docs/arbiter.md."),
        click.option("--check", is_flag=True,
                     help="With --cluster: start every engine on every worker, report, and "
                          "exit without playing."),
        click.option("--ready-timeout", type=Seconds(), default=10.0, show_default=True,
                     metavar="SECONDS", help="Answer time allowed for uci/isready."),
        click.option("--search-timeout", type=Seconds(), default=60.0, show_default=True,
                     metavar="SECONDS",
                     help="A search without a clock (depth, nodes) stalls after this."),
        click.option("--progress", type=click.Choice(["auto", "bar", "lines"]),
                     default="auto", show_default=True,
                     help="bar: one status line redrawn in place; lines: a line per game; "
                          "auto: bar on a terminal."),
        click.option("--quiet", is_flag=True, help="Print nothing (use --json)."),
        # A match is one encounter, so one wording serves both commands.
        click.option("--rounds", type=click.IntRange(1), default=None,
                     help="Openings per encounter (a match is one), each with every seat "
                          "arrangement (a round: 2 games for Camelot, 3 for Tri-Camelot, 6 "
                          "with --all-orders). Default 1."),
        click.option("--games", type=click.IntRange(1), default=None,
                     help="Games per encounter (default: --rounds x the games of a round); "
                          "given with --rounds, the two must agree."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def _repeated_games(players: list[Player], openings: list[Opening],
                    rounds: int) -> str | None:
    """Why the run would play the same games again, if it would: limits without a clock
    (depth, nodes) make a deterministic engine repeat itself, so an encounter needs a
    distinct opening for every round it plays."""
    if any(p.control.bounded for p in players):
        return None
    distinct = len({(o.position, o.moves) for o in openings})
    if rounds <= distinct:
        return None
    return (f"{rounds} games per encounter and seat arrangement from {distinct} distinct "
            f"opening{'s' if distinct != 1 else ''}, with depth/nodes limits and no clock: "
            "deterministic engines will repeat games (give more --openings, or a clock)")


def _run(kind: str, opts: dict[str, Any], encounters_for: Callable[[int, int], list],
         games: int | None, rounds: int | None, sprt_text: str | None) -> None:
    from canter.adapters.arbiter.game import Adjudication, Player, Settings
    from canter.adapters.arbiter.openings import Opening, load_book, load_openings
    from canter.adapters.arbiter.run import Arbiter, ArbiterError, RunConfig
    from canter.adapters.arbiter.schedule import arrangements, build_schedule

    variant = opts["variant"]
    seats = seats_of(variant)
    team_of = _team_of(variant)
    if opts["teams"] and not team_of:
        raise click.UsageError(f"--teams is for team games (grand-cam), not {variant}")
    # With --teams an encounter is two engines, one per team, expanded to the seats below.
    group = 2 if opts["teams"] else seats
    each: list[Field] = []
    for text in opts["each"]:
        try:
            fields = parse_fields(text, "--each")
            # Its values checked on their own, so that a bad one is blamed on --each, not
            # on the first engine it would be given to.
            spec_from_fields([*fields, ("cmd", ["x"])], f"--each {text[:80]!r}")
            each += fields
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--each") from None
    specs: list[EngineSpec] = []
    for text in opts["engines"]:
        try:
            specs.append(parse_engine_spec(text, each))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--engine") from None
    try:
        unique_names(specs)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--engine") from None
    if opts["tc"] is not None and not opts["tc"].strip():
        raise click.BadParameter("empty: give a clock such as 40/60+0.5 or 10+0.1",
                                 param_hint="--tc")
    try:
        default_tc = TimeControl.parse(opts["tc"] or "inf").with_limits(
            movetime=opts["st"], depth=opts["depth"], nodes=opts["nodes"])
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--tc") from None
    players = []
    for spec in specs:
        try:
            control = spec.control(default_tc)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--engine") from None
        if not (control.bounded or control.depth or control.nodes):
            if (opts["tc"] or "").strip().lower() == "inf":
                raise click.UsageError(
                    f"engine {spec.name} has no limit: --tc inf sets no clock, so give "
                    "--st, --depth or --nodes with it (or st=/depth=/nodes= in its --engine)")
            raise click.UsageError(
                f"engine {spec.name} has no limit: give --tc, --st, --depth or --nodes "
                "(or tc=/st=/depth=/nodes= in its --engine)")
        margin = spec.timemargin if spec.timemargin is not None else opts["timemargin"] / 1000
        players.append(Player(spec, control, margin))

    encounters = encounters_for(len(players), group)
    per_block = len(arrangements(encounters[0], opts["all_orders"])) if encounters else 1
    per = " per encounter" if kind == "tournament" else ""
    if games is not None and rounds is not None and games != rounds * per_block:
        raise click.UsageError(
            f"--games {games} and --rounds {rounds} disagree: {rounds} rounds of {per_block} "
            f"games (one opening, every seat arrangement) are {rounds * per_block} games{per}; "
            "give one of them")
    if games is None:
        games = (rounds or 1) * per_block
    if games * len(encounters) > MAX_GAMES:
        # (The schedule is built whole before the first game: a trillion would never start.)
        raise click.UsageError(f"{games * len(encounters):,} games: a run plays at most "
                               f"{MAX_GAMES:,} (give fewer --games or --rounds)")

    source = opts["openings_file"]
    if source is not None and not source.strip():
        raise click.BadParameter("empty: give a FILE, or none for the start position only",
                                 param_hint="--openings")
    if source is not None and source.lower() == "none":
        openings, used = [Opening(None)], "start position only"
    else:
        try:
            openings = (load_book(variant) if source is None
                        else load_openings(source, variant))
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--openings") from None
        book = f"built-in {variant} book" if source is None else source
        used = f"{book} ({len(openings)} opening{'s' if len(openings) != 1 else ''})"
    jobs = build_schedule(encounters, games, len(openings), opts["opening_order"],
                          opts["seed"], opts["all_orders"])
    if opts["teams"]:
        # (a, b) -> a in every seat of the first team, b in every seat of the second.
        jobs = [dataclasses.replace(j, players=tuple(j.players[t] for t in team_of))
                for j in jobs]

    adjudication = Adjudication(maxplies=opts["maxplies"])
    if opts["resign"] is not None:
        # (score: the centipawns a side must be behind; movecount: its moves in a row)
        r = _fields(opts["resign"], "--resign",
                    {"movecount": int, "score": int, "twosided": bool},
                    {"movecount": 1, "score": 1})
        if "movecount" not in r or "score" not in r:
            raise click.BadParameter("give movecount= and score=", param_hint="--resign")
        adjudication.resign_moves = r["movecount"]
        adjudication.resign_score = r["score"]
        adjudication.resign_twosided = r.get("twosided", False)
    if opts["draw"] is not None:
        d = _fields(opts["draw"], "--draw", {"movenumber": int, "movecount": int, "score": int},
                    {"movenumber": 0, "movecount": 1, "score": 0})
        if "movecount" not in d or "score" not in d:
            raise click.BadParameter("give movecount= and score=", param_hint="--draw")
        adjudication.draw_movenumber = d.get("movenumber", 0)
        adjudication.draw_moves = d["movecount"]
        adjudication.draw_score = d["score"]

    sprt_params = None
    if sprt_text is not None:
        # Two engines in two seats, or a team each (pentanomial), or every seat its own
        # engine in a game of three (the first engine's pairwise score per game).
        if team_of:
            if not (opts["teams"] and len(players) == 2):
                raise click.BadParameter("SPRT in a team game needs --teams and two "
                                         "engines (a team each)", param_hint="--sprt")
        elif not (len(players) == 2 == seats or seats > 2):
            raise click.BadParameter("SPRT needs a two-seat match of two engines, a team "
                                     "game of two engines with --teams, or a three-seat "
                                     "match", param_hint="--sprt")
        s = _fields(sprt_text, "--sprt",
                    {"elo0": float, "elo1": float, "alpha": float, "beta": float})
        if "elo0" not in s or "elo1" not in s:
            raise click.BadParameter("give elo0= and elo1=", param_hint="--sprt")
        sprt_params = {"elo0": s["elo0"], "elo1": s["elo1"], "alpha": s.get("alpha", 0.05),
                       "beta": s.get("beta", 0.05)}
        if not all(-MAX_SPRT_ELO <= sprt_params[k] <= MAX_SPRT_ELO for k in ("elo0", "elo1")):
            raise click.BadParameter(f"elo0 and elo1 must be from -{MAX_SPRT_ELO} to "
                                     f"{MAX_SPRT_ELO}", param_hint="--sprt")
        if not (sprt_params["elo0"] < sprt_params["elo1"]
                and 0 < sprt_params["alpha"] < 1 and 0 < sprt_params["beta"] < 1
                and sprt_params["alpha"] + sprt_params["beta"] < 1):
            raise click.BadParameter("need elo0 < elo1, and alpha, beta in (0, 1) with "
                                     "alpha + beta < 1 (else the bounds cross)",
                                     param_hint="--sprt")

    if opts["check"] and not opts["cluster"]:
        raise click.UsageError("--check needs --cluster (it checks the engines on the workers)")
    if opts["cluster"] and opts["log_path"]:
        raise click.UsageError("--log and --cluster do not go together: the engines run on the "
                               "workers")
    settings = Settings(
        variant=variant,
        adjudication=adjudication,
        ready_timeout=opts["ready_timeout"],
        search_timeout=opts["search_timeout"],
        event=opts["event"] or f"canter {kind}",
    )
    identity: dict[str, object] = {
        "variant": variant,
        "engines": [{"name": p.name, "cmd": p.spec.command, "dir": p.spec.cwd,
                     "options": p.spec.options, "limits": p.control.text(),
                     "margin": p.margin} for p in players],
        "order": opts["opening_order"],
        "all_orders": opts["all_orders"],
    }
    if opts["teams"]:
        identity["teams"] = True
    if opts["opening_order"] == "random":
        identity["seed"] = opts["seed"]
    # Adjudication decides results and --event names every record, so a resume with other
    # ones would mix two runs in one file. Left out when unset, which keeps the keys of
    # files written before they counted.
    if adjudication != Adjudication():
        identity["adjudication"] = dataclasses.asdict(adjudication)
    if opts["event"]:
        identity["event"] = opts["event"]
    from canter.adapters.arbiter.output import ProgressOut

    if sys.stdout is None:
        # Started with standard output closed (`>&-`): the engines' pipes (pexpect) need
        # a stream there, and the progress lines go nowhere.
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 (open for the run's life)
    out = ProgressOut(sys.stdout, f"canter {kind}")
    config = RunConfig(players, settings, jobs, openings, seats, opts["concurrency"],
                       opts["pgn"], opts["json_path"], sprt_params, out, opts["quiet"],
                       identity, opts["log_path"], opts["progress"], opts["cluster"],
                       match=kind == "match")
    if opts["check"]:
        _check_cluster(opts["cluster"], players, settings)
        return
    if not opts["quiet"]:
        tcs = sorted({p.control.text() for p in players})
        out.write(f"canter {kind}: {variant}, {len(players)} engines "
                  f"({', '.join(p.name for p in players)}), {count(len(jobs), 'game')}, "
                  f"{' / '.join(tcs)}, "
                  + (f"cluster {opts['cluster']}" if opts["cluster"]
                     else f"concurrency {opts['concurrency']}") + f", openings: {used}\n")
        out.flush()
        repeats = _repeated_games(players, openings, -(-games // per_block))
        if repeats:
            _note(f"Warning: {repeats}")
    arbiter = Arbiter(config)

    def interrupt(signum: int, frame: object) -> None:
        again = arbiter.interrupt.is_set()
        arbiter.interrupt.set()
        # Once games are played the run's loop stops in order on the flag; a second
        # interrupt cuts a stop that hangs short.
        if not arbiter.playing or again:
            raise KeyboardInterrupt

    # A hangup (the terminal or the ssh session gone) stops the run as an interrupt does:
    # the summary and --json written, the engines (in sessions of their own, which the
    # hangup never reaches) stopped.
    stops = [signal.SIGINT, signal.SIGTERM]
    if hasattr(signal, "SIGHUP"):
        stops.append(signal.SIGHUP)
    previous = {sig: signal.getsignal(sig) for sig in stops}
    for sig in previous:
        signal.signal(sig, interrupt)
    try:
        outcome = arbiter.run()
    except ArbiterError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyboardInterrupt:
        # Outside the games (reading a large --pgn, shutting down): every finished game is
        # already in the record file, which is never left half-written.
        _note("Interrupted: finished games are saved; run the same command to resume")
        sys.exit(130)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if outcome.interrupted:
        sys.exit(130)


def _note(text: str) -> None:
    """A line on standard error that may find it gone too (a hung-up terminal gives EIO):
    the run's exit code and files matter more than the note."""
    try:
        click.echo(text, err=True)
    except (OSError, ValueError):
        pass


def _check_cluster(address: str, players: list, settings: Any) -> None:
    """--check: every engine on every worker, one line per worker; exit 1 on a problem."""
    from canter.adapters.arbiter.cluster import ClusterError, check_workers, connect

    try:
        conn = connect(address)
    except (ClusterError, ValueError) as exc:
        raise click.ClickException(str(exc)) from None
    try:
        answers = check_workers(conn, players, settings, wait=10.0)
    except ClusterError as exc:
        raise click.ClickException(f"--cluster {address}: {exc}") from None
    except Exception as exc:
        raise click.ClickException(f"--cluster {address}: the workers could not be asked "
                                   f"({exc})") from None
    finally:
        conn.close()
    bad = 0
    for worker, problems in answers.items():
        if problems:
            bad += 1
            for problem in problems:
                click.echo(f"worker {worker}: {problem}")
        else:
            click.echo(f"worker {worker}: ok ({len(players)} engines started)")
    if bad:
        raise click.ClickException(f"{bad} of {len(answers)} workers cannot run the engines")


@click.command(cls=ArbiterCommand, epilog=cutechess_help("match"))
@common_options
@click.option("--sprt", "sprt_text", default=None, metavar="'elo0=E0 elo1=E1 alpha=A beta=B'",
              help="Stop when the SPRT accepts H0 or H1: two seats (or a team each with "
                   "--teams), over the pentanomial counts; three seats, over the first "
                   "engine's pairwise score per game.")
def match(rounds: int | None, games: int | None, sprt_text: str | None, **opts: Any) -> None:
    """Play a match: two engines (Camelot), three (Tri-Camelot), four (Grand Cam), or two
    playing a team each (Grand Cam with --teams).

    Example: canter match --engine "cmd=canter" --engine "cmd=./other name=other"
    --games 100 --tc 40/60+0.5 --concurrency 2 --pgn games.pgn

    Without --openings the games start from the variant's built-in book.
    """
    from canter.adapters.arbiter.schedule import round_robin

    seats = 2 if opts["teams"] else seats_of(opts["variant"])
    if len(opts["engines"]) != seats:
        each = " (one per team with --teams)" if opts["teams"] else ""
        raise click.UsageError(f"a {opts['variant']} match needs {seats} --engine options"
                               f"{each}, not {len(opts['engines'])} (use 'canter tournament' "
                               "for more)")
    _run("match", opts, round_robin, games, rounds, sprt_text)


@click.command(cls=ArbiterCommand, epilog=cutechess_help("tournament"))
@common_options
@click.option("--format", "fmt", type=click.Choice(["round-robin", "gauntlet"]),
              default="round-robin", show_default=True,
              help="Every engine against every other, or the first --seeds engines "
                   "against each of the rest.")
@click.option("--seeds", type=click.IntRange(1), default=1, show_default=True,
              help="Gauntlet: how many of the first engines run the gauntlet.")
def tournament(fmt: str, rounds: int | None, games: int | None, seeds: int,
               **opts: Any) -> None:
    """Round-robin or gauntlet between engines, in any game of the family.

    Round-robin: every pair (two seats) or trio (Tri-Camelot) of engines meets; in Grand
    Cam every four, or with --teams every pair, each engine a whole team. Gauntlet: the
    first engine(s) meet every pair/single of the others.
    """
    from canter.adapters.arbiter.schedule import gauntlet, round_robin

    seats = 2 if opts["teams"] else seats_of(opts["variant"])
    n = len(opts["engines"])
    need = seats + (1 if fmt == "gauntlet" and seats > 2 else 0)
    if n < max(seats, 2 if fmt == "round-robin" else need):
        raise click.UsageError(f"a {opts['variant']} {fmt} needs at least {need} --engine options")

    def encounters(nplayers: int, nseats: int) -> list:
        if fmt == "gauntlet":
            try:
                return gauntlet(nplayers, nseats, seeds)
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="--seeds") from None
        return round_robin(nplayers, nseats)

    _run("tournament", opts, encounters, games, rounds, None)


@click.command(context_settings={"ignore_unknown_options": True})
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
@click.option("--timeout", type=Seconds(), default=5.0, show_default=True,
              help="Seconds allowed for each answer.")
@click.option("--dir", "cwd", default=None,
              type=click.Path(exists=True, file_okay=False, dir_okay=True),
              help="Working directory of the engine.")
def compliance(command: tuple[str, ...], timeout: float, cwd: str | None) -> None:
    """Check that the engine started by COMMAND speaks the canter protocol
    (docs/protocol.md).

    Give the command as one quoted string or as words: canter compliance "python -m canter".
    Prints PASS/FAIL per step (with the engine's output on a failure); exit code 1 if any
    step failed. A command that cannot be started fails the handshake step and the other
    steps are not run (counted as "not run"; exit code 1); so does an engine that fails the
    handshake (exits, or does not answer within --timeout).
    """
    try:
        words = shlex.split(command[0]) if len(command) == 1 else list(command)
    except ValueError as exc:  # an unclosed quote
        raise click.BadParameter(f"{command[0]!r}: {exc}", param_hint="COMMAND") from None
    if not words or not words[0]:
        raise click.BadParameter("the engine command is empty", param_hint="COMMAND")
    from canter.adapters.arbiter.compliance import Compliance

    checker = Compliance(words, timeout=timeout, cwd=cwd)
    ok = checker.run(click.echo)
    failed = [r.name for r in checker.results if not r.passed and not r.skipped]
    skipped = sum(r.skipped for r in checker.results)
    passed = sum(r.passed for r in checker.results)
    click.echo(f"{passed} passed, {len(failed)} failed"
               + (f": {', '.join(failed)}" if failed else "")
               + (f", {skipped} not run" if skipped else ""))
    sys.exit(0 if ok else 1)
