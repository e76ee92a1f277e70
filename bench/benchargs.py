"""Argument types the bench scripts share, so that a mistyped argument is one `error:`
line from argparse (status 2) before any work, never a traceback after it.

Imported before any `canter` module, it puts the checkout it sits in first on sys.path: a
script measures the tree it belongs to (a clone's bench/ its clone), not whichever canter
is installed; and DEFAULT_ENGINE with engine_env() starts that tree's engine, from any
folder."""

from __future__ import annotations

import argparse
import math
import os
import shlex
import sys
from collections.abc import Callable
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
if sys.path[:1] != [str(CHECKOUT)]:
    sys.path.insert(0, str(CHECKOUT))

from canter.engine import VARIANT_NAMES  # noqa: E402  (after the checkout is on the path)
from canter.engine.search.alphabeta import SWITCHES  # noqa: E402

# --engine of the scripts that drive an engine process: this checkout's (engine_env).
DEFAULT_ENGINE = shlex.join([sys.executable, "-m", "canter"])


def engine_env(command: str) -> dict[str, str] | None:
    """The environment to start `command` in: for DEFAULT_ENGINE the checkout first on
    PYTHONPATH, and PYTHONSAFEPATH so that `-m` puts no current folder before it (as
    strength.checkout_env), else `python -m canter` would be whatever canter the folder
    or the installation holds. None (the caller's own) for an engine given by hand."""
    if command != DEFAULT_ENGINE:
        return None
    env = dict(os.environ)
    rest = env.get("PYTHONPATH")
    env["PYTHONPATH"] = str(CHECKOUT) + (os.pathsep + rest if rest else "")
    env["PYTHONSAFEPATH"] = "1"
    return env

# The search's own options: the switches an engine takes from outside, and those only a
# script sets on a searcher it built (oppk: opponent moves, read: reading opponents, smp:
# helper variety, stage: killer staging, tables: endgame tables) -> the most each takes.
SEARCH_OPTIONS = {**SWITCHES, "oppk": 64, "read": 1, "smp": 3, "stage": 1, "tables": 1}


def positive_int(text: str) -> int:
    """A whole number of at least 1 (a count, a depth, a node limit)."""
    if not text.strip().isascii() or not text.strip().isdecimal() or len(text.strip()) > 12:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {text!r}")
    return value


def positive_float(text: str) -> float:
    """A finite number above 0 (seconds)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number above 0, not {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a number above 0, not {text!r}")
    return value


def number_where(text: str, fits: Callable[[float], bool], expected: str) -> float:
    """`text` as a number that `fits` (a text that is no number is nan, which a range
    test refuses), else the argparse error 'expected <expected>, not <text>'."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not fits(value):
        raise argparse.ArgumentTypeError(f"expected {expected}, not {text!r}")
    return value


def share(text: str) -> float:
    """A share from 0 up to, not including, 1 (of the games held out, say: all of them
    would leave nothing to work on)."""
    return number_where(text, lambda v: 0.0 <= v < 1.0, "a number from 0 to below 1")


def seconds_or_none(text: str) -> float:
    """A finite number of seconds, 0 or more (0: the step is left out)."""
    if text.strip() in ("0", "0.0"):
        return 0.0
    return positive_float(text)


def variant(text: str) -> str:
    if text not in VARIANT_NAMES:
        raise argparse.ArgumentTypeError(f"unknown variant {text!r} (known: "
                                         f"{', '.join(VARIANT_NAMES)})")
    return text


def existing_file(text: str) -> str:
    if not os.path.isfile(text):
        why = "a folder" if os.path.isdir(text) else "no such file"
        raise argparse.ArgumentTypeError(f"{text}: {why}")
    return text


def search_options(text: str) -> dict[str, int]:
    """`name=value` pairs joined by commas or spaces (an empty text is none)."""
    out: dict[str, int] = {}
    for item in text.replace(",", " ").split():
        name, value = search_option(item)
        out[name] = value
    return out


def search_option(text: str) -> tuple[str, int]:
    """One `name=value` of the search's options, its name known and its value in range;
    or `w_NAME=N`, an evaluation weight (Weights.NAME, a whole number, signed)."""
    name, sep, value = text.partition("=")
    if name.startswith("w_"):
        return _weight(name, sep, value, text)
    if name not in SEARCH_OPTIONS:
        raise argparse.ArgumentTypeError(f"unknown search option {name!r} (known: "
                                         f"{', '.join(sorted(SEARCH_OPTIONS))})")
    most = SEARCH_OPTIONS[name]
    if not sep or not value.isascii() or not value.isdecimal() or int(value) > most:
        raise argparse.ArgumentTypeError(f"{name} takes a whole number from 0 to {most}, "
                                         f"as {name}=1, not {text!r}")
    return name, int(value)


def existing_path(text: str) -> Path:
    """An existing file, as a Path."""
    return Path(existing_file(text))


def _weight(name: str, sep: str, value: str, text: str) -> tuple[str, int]:
    from dataclasses import fields

    from canter.engine.search.evaluate import Weights

    whole = [f.name for f in fields(Weights) if f.type in ("int", int)]
    if name[2:] not in whole:
        raise argparse.ArgumentTypeError(f"unknown weight {name!r} (w_ and one of: "
                                         f"{', '.join(whole)})")
    digits = value[1:] if value[:1] in "+-" else value
    if not sep or not digits.isascii() or not digits.isdecimal() or len(digits) > 9:
        raise argparse.ArgumentTypeError(f"{name} takes a whole number, as {name}=0, not "
                                         f"{text!r}")
    return name, int(value)


def game_records(path: str, **kwargs: bool) -> list:
    """The game records of a file (read_games_file's keywords). A file that is not game
    records ends the script with one line, `Error: PATH: not game records (why)`, status 1,
    rather than a traceback from the reader."""
    from canter.adapters.records.format import RecordError, read_games_file

    try:
        return read_games_file(path, **kwargs)
    except RecordError as exc:
        raise SystemExit(f"Error: {path}: not game records ({exc})") from None
    except OSError as exc:
        raise SystemExit(f"Error: {path}: {exc.strerror or exc}") from None


def check_outputs(parser: argparse.ArgumentParser, outputs: tuple[tuple[str, str], ...]) -> None:
    """Files a script appends to as it goes (option, path; an empty path is none): a folder
    that is missing or a path that cannot be written is said before any work, not after
    the first long search."""
    from canter.adapters.files import OutputPathError, check_output_file

    for option, path in outputs:
        if path:
            try:
                check_output_file(path)
            except OutputPathError as exc:
                parser.error(f"{option} {exc}")

