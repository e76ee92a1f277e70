"""`canter transcript run|record`: regression-test engines with recorded protocol sessions."""

from __future__ import annotations

import os
import shlex
import sys

import click

from canter.adapters.params import Seconds
from canter.adapters.text import count
from canter.adapters.transcript.format import TranscriptSyntaxError, parse_file
from canter.adapters.transcript.run import (
    DEFAULT_TIMEOUT,
    Failure,
    RunResult,
    format_failure,
    run_transcript,
    summary,
)
from canter.adapters.transcript.session import split_command

TRANSCRIPT_SUFFIX = ".txt"

ENGINE_HELP = (
    "Engine command line, split like a shell would split it (quotes, backslashes; no pipes "
    "or globbing). Default: this canter engine, run with this Python "
    "(`python -m canter`)."
)


@click.group()
def transcript() -> None:
    """Replay and record protocol sessions as regression tests.

    A transcript is a text file, one event per line: `> line` is sent to the engine,
    `< line` must come back exactly, `<*` glob and `<~` regex match loosely, `...` skips
    output until a line matches, `@timeout`, `@exit` and friends control the session.
    The format is specified in docs/transcripts.md.
    """


def _engine_argv(engine: str | None) -> list[str]:
    try:
        return split_command(engine)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--engine") from None


def _expand(paths: tuple[str, ...]) -> list[str]:
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found = sorted(
                os.path.join(path, name)
                for name in os.listdir(path)
                if name.endswith(TRANSCRIPT_SUFFIX)
            )
            if not found:
                raise click.BadParameter(
                    f"no *{TRANSCRIPT_SUFFIX} transcripts in directory {path}",
                    param_hint="FILE",
                )
            files.extend(found)
        else:
            files.append(path)
    return files


@transcript.command()
@click.argument("files", metavar="FILE...", nargs=-1, required=True,
                type=click.Path(exists=True, dir_okay=True))
@click.option("--engine", "-e", metavar="COMMAND", help=ENGINE_HELP)
@click.option("--timeout", "-t", type=Seconds(),
              default=DEFAULT_TIMEOUT, show_default=True, metavar="SECONDS",
              help="Seconds each step may take, unless the transcript says otherwise "
                   "with @timeout.")
@click.option("--verbose", "-v", is_flag=True,
              help="Show the whole session as it runs (> sent, < received, . skipped).")
@click.option("--fail-fast", "-x", is_flag=True, help="Stop after the first failing file.")
@click.option("--tail", type=click.IntRange(min=0), default=12, show_default=True,
              metavar="N", help="Session lines shown with a failure.")
def run(files: tuple[str, ...], engine: str | None, timeout: float, verbose: bool,
        fail_fast: bool, tail: int) -> None:
    """Replay each transcript FILE against a fresh engine process.

    A FILE may be a directory: its *.txt files run in name order. Each transcript gets its
    own engine process, talked to through plain pipes. Prints PASS or FAIL per file, and
    for a failure the step, what was expected, what came back and the last lines of the
    session; then a summary line `N passed, N failed` (and `, N not run` for the files
    --fail-fast skipped). Exit status 1 if any file failed.

    \b
    Examples:
      canter transcript run tests/transcripts
      canter transcript run --engine "./my-engine --uci" session.txt
      canter transcript run -v --timeout 30 slow-search.txt
    """
    argv = _engine_argv(engine)
    results: list[RunResult] = []

    def show(kind: str, text: str) -> None:
        mark = {"send": ">", "recv": "<", "skip": ".", "note": "#"}[kind]
        click.echo(f"    {mark} {text}")

    paths = _expand(files)
    for path in paths:
        if verbose:
            click.echo(f"---- {path}")
        try:
            parsed = parse_file(path)
        except (TranscriptSyntaxError, OSError) as exc:
            why = f"{path}: {exc.strerror}" if isinstance(exc, OSError) else str(exc)
            result = RunResult(path, 0, 0.0, Failure(None, 0, "a valid transcript", why))
            click.echo(f"FAIL {path}")
            click.echo(f"  cannot read the transcript: {why}")
        else:
            result = run_transcript(parsed, argv, timeout, show if verbose else None)
            if result.failure is not None and result.failure.step is None:
                # every file would fail the same way: say it once and stop
                raise click.ClickException(
                    f"cannot start the engine {shlex.join(argv)}: {result.failure.received}")
            if result.passed:
                steps = count(result.steps_run, "step")
                click.echo(f"PASS {path} ({steps}, {result.elapsed:.2f} s)")
            else:
                click.echo(f"FAIL {path}")
                for line in format_failure(result, tail):
                    click.echo(line)
        results.append(result)
        if fail_fast and not result.passed:
            break
    click.echo(summary(results, not_run=len(paths) - len(results)))
    if not all(result.passed for result in results):
        sys.exit(1)


@transcript.command()
@click.option("--engine", "-e", metavar="COMMAND", help=ENGINE_HELP)
@click.option("--output", "-o", metavar="FILE", required=True,
              help="Where to write the transcript ('-' for stdout).")
@click.option("--settle", type=Seconds(0.0, low_open=False), default=0.2,
              show_default=True, metavar="SECONDS",
              help="Piped input: wait until the engine has been quiet this long (counted "
                   "from its first output line) before sending the next line.")
@click.option("--timeout", "-t", type=Seconds(),
              default=DEFAULT_TIMEOUT, show_default=True, metavar="SECONDS",
              help="Longest wait for the end of an answer (bestmove, uciok, readyok, "
                   "pong), for quiet, for the engine to take a line, or for it to exit.")
@click.option("--loose", "loose", metavar="FIELD", multiple=True,
              help="Also match the number after FIELD loosely (repeatable), e.g. "
                   "--loose seldepth.")
@click.option("--loose-nodes", is_flag=True,
              help="Match node counts loosely even in depth- or nodes-limited searches.")
@click.option("--quiet", "-q", is_flag=True, help="Do not echo the engine's output.")
def record(engine: str | None, output: str, settle: float, timeout: float,
           loose: tuple[str, ...], loose_nodes: bool, quiet: bool) -> None:
    """Relay stdin lines to an engine and save the exchange as a transcript.

    Type commands at a terminal, or pipe them in; the engine's answers are echoed. At the
    end of the input the engine's input is closed (unless it already exited, e.g. after
    `quit`) and its exit code is recorded. Volatile fields become loose matches: the
    numbers after time, nps and hashfull; node counts when the search is not
    deterministic; a clock-limited or infinite search keeps only `...* bestmove *`.
    Review the result by hand before committing it as a test.

    \b
    Examples:
      printf 'uci\\nisready\\nquit\\n' | canter transcript record -o handshake.txt
      canter transcript record --engine ./my-engine -o session.txt
    """
    from canter.adapters.files import (
        OutputPathError,
        check_output_file,
        check_own_file,
        replace_file,
    )
    from canter.adapters.transcript.record import (
        VOLATILE_FIELDS,
        InputNotText,
        Recording,
        RecordingFailed,
        record_session,
        stdin_lines,
    )

    argv = _engine_argv(engine)
    if output != "-":
        try:  # before the session: a typed session must not be lost at the end
            check_output_file(output)
            check_own_file(output, (b"# recorded with: canter transcript record",),
                           "a transcript canter transcript record wrote")
        except OutputPathError as exc:
            raise click.BadParameter(str(exc), param_hint="--output") from None
        if _is_stdin(output):
            raise click.BadParameter(f"{output} is the input being recorded: writing it would "
                                     "destroy the commands", param_hint="--output")
    recording = Recording(VOLATILE_FIELDS + loose, loose_nodes=loose_nodes)
    recording.comment("recorded with: canter transcript record --engine " + shlex.join(argv))
    interactive = sys.stdin.isatty()
    if interactive:
        click.echo("Recording: type engine commands, end with Ctrl-D (or quit).", err=True)
    try:
        record_session(
            argv,
            stdin_lines(),
            None if quiet else (sys.stderr if output == "-" else sys.stdout),
            interactive=interactive,
            settle=settle,
            timeout=timeout,
            recording=recording,
        )
    except OSError as exc:
        raise click.ClickException(
            f"cannot start the engine {shlex.join(argv)}: {exc.strerror or exc}"
        ) from None
    except (InputNotText, RecordingFailed) as exc:
        raise click.ClickException(f"{exc}; nothing written") from None
    silence = recording.silence()
    if silence is not None:
        raise click.ClickException(f"{silence} ({shlex.join(argv)}); nothing written")
    text = recording.transcript().render()
    if output == "-":
        sys.stdout.write(text)
    else:
        try:
            replace_file(output, text)
        except OSError as exc:
            raise click.ClickException(
                f"cannot write {output}: {exc.strerror or exc}") from None
        steps = len(recording.transcript().actions)
        click.echo(f"wrote {count(steps, 'step')} to {output}", err=True)


def _is_stdin(path: str) -> bool:
    """Whether `path` is the file on the recorder's standard input (`-o x < x`)."""
    import stat

    try:
        given, stdin = os.stat(path), os.fstat(sys.stdin.fileno())
    except (OSError, ValueError):
        return False
    # (Regular files only: a terminal is both the input and /dev/stdout, harmlessly.)
    return (stat.S_ISREG(given.st_mode) and stat.S_ISREG(stdin.st_mode)
            and (given.st_dev, given.st_ino) == (stdin.st_dev, stdin.st_ino))
