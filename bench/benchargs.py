"""Argument types the bench scripts share, so that a mistyped argument is one `error:`
line from argparse (status 2) before any work, never a traceback after it."""

from __future__ import annotations

import argparse
import math
import os

from canter.engine import VARIANT_NAMES
from canter.engine.search.alphabeta import SWITCHES

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


def existing_path(text: str):
    """An existing file, as a Path."""
    from pathlib import Path

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

