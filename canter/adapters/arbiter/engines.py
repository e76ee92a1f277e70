"""Engine specifications for `canter match` / `canter tournament`.

`--engine` takes `key=value` fields, as cutechess-cli's `-engine` does: either in one
argument (`--engine "cmd=canter name=a"`), or, as cutechess-cli writes them, one field per
word (`-engine cmd=canter name=a`; the command line joins those words with shlex quoting
before they reach this module, so both forms parse alike):

    cmd=python -m canter name=canter-a dir=/tmp option.Hash=16 tc=40/60+0.5

Keys: `cmd` (the command line; words after it that are not a field belong to it, so it
need not be quoted), `name`, `dir` (working directory), `option.NAME=VALUE` (a
`setoption`; NAME may contain spaces, `option.Move Overhead=50`: the name runs to the first
`=`), `tc`, `st`, `depth`, `nodes` (this engine's limits, overriding the match-wide ones),
`timemargin` (ms), `arg=WORD` (one more command-line word), `proto=uci` (accepted for
cutechess-cli's sake: the arbiter always speaks the uci dialect). A string with no `key=`
at all is just the command line. `--each` takes the same fields for every engine; an
engine's own fields win (docs/arbiter.md).
"""

from __future__ import annotations

import math
import re
import shlex
from dataclasses import dataclass, field

from canter.adapters.arbiter.tc import MIN_SECONDS, TimeControl
from canter.adapters.params import MAX_SECONDS

KEYS = ("cmd", "name", "dir", "tc", "st", "depth", "nodes", "timemargin", "arg", "proto")
# cutechess-cli's engine fields that canter has no counterpart for: named in the error so a
# user knows the field was recognised, not mistyped
_CUTECHESS_ONLY = ("conf", "initstr", "restart", "trust", "whitepov", "ponder", "book",
                   "bookdepth", "stderr", "tscale")
# what looks like a field (`word=`) rather than a word of the command (`--flag=x`, `/a=b`)
_FIELD_LIKE = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*=")

# A field: its key and the words of its value (a value continues over words that are not
# fields, so `name=my engine` and `cmd=python -m canter` need no quotes).
Field = tuple[str, list[str]]


@dataclass
class EngineSpec:
    command: list[str]
    name: str = ""
    cwd: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    tc: str | None = None
    movetime: float | None = None
    depth: int | None = None
    nodes: int | None = None
    timemargin: float | None = None  # seconds

    def control(self, default: TimeControl) -> TimeControl:
        """This engine's limits: its own `tc=` or `st=` replaces the match's time control
        (clock and move time alike, as in cutechess-cli: `tc=10+0.1` against a match-wide
        `--st 0.5` is a clock alone); its `depth=` and `nodes=` replace the match's, which
        it keeps otherwise."""
        if self.tc is not None or self.movetime is not None:
            tc = TimeControl.parse(self.tc) if self.tc is not None else TimeControl()
            tc = tc.with_limits(depth=default.depth, nodes=default.nodes)
        else:
            tc = default
        return tc.with_limits(movetime=self.movetime, depth=self.depth, nodes=self.nodes)


def _seconds_field(value: str, key: str, unit: str, example: str) -> float:
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"{key} must be a number of {unit}, such as {example}") from None


def _unknown(word: str, where: str) -> ValueError:
    key = word.partition("=")[0]
    if key in _CUTECHESS_ONLY:
        hint = "a cutechess-cli field canter does not support"
    elif key.lower() in KEYS or key.lower().startswith("option."):
        hint = f"keys are lower-case: {key.lower()}="
    else:
        hint = ("fields: cmd, name, dir, option.NAME, tc, st, depth, nodes, timemargin, arg; "
                "an engine option is option.NAME=VALUE; quote the command if the word is "
                "part of it")
    return ValueError(f"{where}: unknown field {word!r} ({hint})")


def parse_fields(text: str, what: str = "engine") -> list[Field]:
    """Split one `--engine`/`--each` value into fields; ValueError names the field that
    cannot be read. `what` names the option in messages."""
    where = f"{what} {text!r}"
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None
    if not words:
        raise ValueError(f"empty {what}")
    fields: list[Field] = []
    pending: list[str] | None = None  # an option's name read so far, up to its `=`
    for word in words:
        if pending is not None:
            # `option.Three Seat Search=brs` arrives as three words: the name runs to the `=`
            head, eq, value = word.partition("=")
            pending.append(head)
            if eq:
                fields.append(_option_field(" ".join(pending), value, where))
                pending = None
            continue
        key, eq, value = word.partition("=")
        if key.startswith("option."):
            if eq:
                fields.append(_option_field(key[len("option."):], value, where))
            else:
                pending = [key[len("option."):]]
        elif eq and key in KEYS:
            fields.append((key, [value]))
        elif eq and not key:
            raise ValueError(f"{where}: {word!r} has no key before '='")
        elif _FIELD_LIKE.match(word):
            raise _unknown(word, where)
        elif fields:
            fields[-1][1].append(word)
        else:
            fields.append(("cmd", [word]))
    if pending is not None:
        name = " ".join(pending)
        raise ValueError(f"{where}: 'option.{name}' has no '=VALUE' "
                         "(an option is option.NAME=VALUE; its name runs to the '=')")
    seen: set[str] = set()
    for key, _ in fields:
        if key in seen and key != "arg" and not key.startswith("option."):
            raise ValueError(f"{where}: {key}= given twice")
        seen.add(key)
    return fields


def _option_field(name: str, value: str, where: str) -> Field:
    name = " ".join(name.split())
    if not name:
        raise ValueError(f"{where}: 'option.={value}' names no option (option.NAME=VALUE)")
    # The game and its rules are the arbiter's: an engine told another game or other
    # rules would play a game the arbiter does not referee, and lose it by forfeit.
    if name.lower() == "uci_variant":
        raise ValueError(f"{where}: option.{name} is set by the arbiter: give the game with "
                         "--variant")
    if name.lower().startswith("rule "):
        raise ValueError(f"{where}: option.{name}: the arbiter referees every game by the "
                         "game's own rules, so an engine may not be given other rules")
    return (f"option.{name}", [value])


def merge_fields(each: list[Field], own: list[Field]) -> list[Field]:
    """`--each` fields under an engine's own: a key the engine gives itself (one option
    name, or all its `arg=` words together) replaces the shared one."""
    keys = {key for key, _ in own}
    return [f for f in each if f[0] not in keys] + own


def spec_from_fields(fields: list[Field], where: str) -> EngineSpec:
    """Build an engine from its fields; ValueError names a field whose value is wrong."""
    command: list[str] = []
    args: list[str] = []  # after the command's own words, wherever arg= stood
    spec = EngineSpec(command=command)
    for key, values in fields:
        words = [w for w in values if w]
        value = " ".join(words)
        if not key.startswith("option.") and not value:
            raise ValueError(f"{where}: {key}= needs a value")
        try:
            if key == "cmd":
                # one quoted word holding a whole command line is split again
                command.extend(words if len(words) > 1 else shlex.split(words[0]))
            elif key == "arg":
                args.append(value)
            elif key == "name":
                spec.name = value
            elif key == "dir":
                spec.cwd = value
            elif key == "proto":
                if value != "uci":
                    raise ValueError("the arbiter speaks the uci dialect only (proto=uci)")
            elif key == "tc":
                TimeControl.parse(value)
                spec.tc = value
            elif key == "st":
                spec.movetime = _seconds_field(value, "st", "seconds", "0.5")
                if not (math.isfinite(spec.movetime) and 0 < spec.movetime <= MAX_SECONDS):
                    raise ValueError(f"st must be a number of seconds above 0 and at most "
                                     f"{MAX_SECONDS:g}")
                if spec.movetime < MIN_SECONDS:
                    raise ValueError(f"st must be at least {MIN_SECONDS:g} s (it is sent in "
                                     "whole milliseconds)")
            elif key in ("depth", "nodes"):
                if not value.isdecimal() or len(value) > 12:
                    raise ValueError(f"{key} must be a whole number of at most 12 digits")
                if int(value) < 1:
                    raise ValueError(f"{key} must be at least 1")
                setattr(spec, key, int(value))
            elif key == "timemargin":
                spec.timemargin = _seconds_field(value, "timemargin", "milliseconds", "50") / 1000.0
                if not (math.isfinite(spec.timemargin) and 0 <= spec.timemargin <= MAX_SECONDS):
                    raise ValueError("timemargin must be a number of milliseconds, at least 0")
            else:
                spec.options[key[len("option."):]] = value
        except ValueError as exc:
            shown = value if len(value) <= 40 else value[:40] + "..."
            raise ValueError(f"{where}: {key}={shown!r}: {exc}") from None
    if not command:
        raise ValueError(f"{where}: no command (cmd=...)")
    command.extend(args)
    return spec


def parse_engine_spec(text: str, each: list[Field] | None = None) -> EngineSpec:
    """Parse one `--engine` value, under the `--each` fields if given; ValueError names
    what is wrong."""
    own = parse_fields(text)
    # Shown as its fields (the command line may have quoted a lone field whole, and a
    # quote in a quoted text would be echoed escaped).
    shown = " ".join(shlex.split(text))
    shown = shown if len(shown) <= 80 else shown[:80] + "..."
    return spec_from_fields(merge_fields(each or [], own), f"engine {shown!r}")


def unique_names(specs: list[EngineSpec]) -> None:
    """Give every engine a distinct name: the given one, else the program's name; repeats
    get `-2`, `-3`, ... (canter against itself: `canter`, `canter-2`)."""
    import os

    taken: dict[str, int] = {}
    for spec in specs:
        if not spec.name:
            program = os.path.basename(spec.command[0])
            if program.startswith("python") and len(spec.command) > 2 and spec.command[1] == "-m":
                program = spec.command[2]
            elif program.startswith("python") and len(spec.command) > 1:
                program = os.path.splitext(os.path.basename(spec.command[1]))[0]
            spec.name = program
    for spec in specs:
        base = spec.name
        count = taken.get(base, 0) + 1
        taken[base] = count
        if count > 1:
            spec.name = f"{base}-{count}"
            while spec.name in taken:
                count += 1
                spec.name = f"{base}-{count}"
            taken[spec.name] = 1
    names = [spec.name for spec in specs]
    if len(set(names)) != len(names):
        raise ValueError(f"engine names must differ: {', '.join(names)} (give name=...)")
