"""Command-line value types shared by the tools' click commands."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

# Longer than any wait a person or a test means; beyond it a time becomes `inf` or
# overflows the clock functions.
MAX_SECONDS = 1_000_000.0


class Seconds(click.ParamType):
    """A time in seconds: a finite number above `low` (or from `low`, with `low_open`
    False), at most MAX_SECONDS. click's FloatRange lets `nan` through."""

    name = "seconds"

    def __init__(self, low: float = 0.0, low_open: bool = True) -> None:
        self.low = low
        self.low_open = low_open

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> float:
        if isinstance(value, float):
            seconds = value
        else:
            try:
                seconds = float(str(value))
            except ValueError:
                self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        if seconds < self.low or (self.low_open and seconds == self.low):
            bound = "more than" if self.low_open else "at least"
            self.fail(f"{value} seconds: must be {bound} {self.low:g}", param, ctx)
        if seconds > MAX_SECONDS:
            self.fail(f"{value} seconds: at most {MAX_SECONDS:.0f}", param, ctx)
        return seconds


def variant_option(help: str) -> Callable[[F], F]:
    """`--variant NAME`, the same in every command: the games canter knows, listed from the
    rules library (a new game appears in every command's help by itself), Camelot first."""
    from canter.engine import VARIANT_NAMES

    return click.option("--variant", type=click.Choice(VARIANT_NAMES), default=VARIANT_NAMES[0],
                        show_default=True, help=help)


def color_option(what: str) -> Callable[[F], F]:
    """`--color/--no-color`, alike in every command that draws a text board."""
    return click.option("--color/--no-color", default=None,
                        help=f"Colour {what} (default: when the output is a terminal).")


def read_input_file(path: str, param: str, what: str) -> bytes:
    """The bytes of a file a command reads whole (a book, a proof). One that cannot be
    opened is a bad `param`, exit 2, as every command's missing file; one larger than any
    file of its kind (a device that never ends) a failure naming `what`, exit 1."""
    from canter.adapters.files import MAX_TEXT_INPUT, InputTooLarge, read_at_most

    try:
        with open(path, "rb") as f:
            return read_at_most(f, MAX_TEXT_INPUT, what)
    except InputTooLarge as exc:
        raise click.ClickException(f"{path}: {exc}") from None
    except OSError as exc:
        raise click.BadParameter(f"{path}: {exc.strerror or 'cannot be read'}",
                                 param_hint=param) from None
