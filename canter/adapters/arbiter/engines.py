"""Engine specifications for `canter match` / `canter tournament`.

`--engine` takes one string of `key=value` fields (cutechess-cli's `-engine`, in one
argument):

    cmd=python -m canter name=canter-a dir=/tmp option.Hash=16 tc=40/60+0.5

Keys: `cmd` (the command line; words after it that are not a known key belong to it, so it
need not be quoted), `name`, `dir` (working directory), `option.NAME=VALUE` (a `setoption`;
quote a name with spaces: `'option.Move Overhead=50'`), `tc`, `st`, `depth`, `nodes`
(this engine's limits, overriding the match-wide ones), `timemargin` (ms), `arg=WORD`
(one more command-line word). A string with no `key=` at all is just the command line.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from canter.adapters.arbiter.tc import TimeControl

KEYS = ("cmd", "name", "dir", "tc", "st", "depth", "nodes", "timemargin", "arg")


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
        tc = TimeControl.parse(self.tc) if self.tc is not None else default
        if self.tc is not None:
            # an engine's own tc replaces the clock but keeps match-wide depth/nodes/st
            tc = tc.with_limits(movetime=default.movetime, depth=default.depth,
                                nodes=default.nodes)
        return tc.with_limits(movetime=self.movetime, depth=self.depth, nodes=self.nodes)


def _key_of(word: str) -> str | None:
    key, eq, _ = word.partition("=")
    if not eq:
        return None
    if key in KEYS or (key.startswith("option.") and len(key) > len("option.")):
        return key
    return None


def parse_engine_spec(text: str) -> EngineSpec:
    """Parse one `--engine` value; ValueError names what is wrong."""
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise ValueError(f"engine {text!r}: {exc}") from None
    if not words:
        raise ValueError("empty --engine")
    fields: list[tuple[str, list[str]]] = []
    for word in words:
        key = _key_of(word)
        if key is not None:
            fields.append((key, [word[len(key) + 1 :]]))
        elif fields:
            fields[-1][1].append(word)
        else:
            fields.append(("cmd", [word]))
    command: list[str] = []
    spec = EngineSpec(command=command)
    seen: set[str] = set()
    for key, values in fields:
        if key in seen and key not in ("arg",) and not key.startswith("option."):
            raise ValueError(f"engine {text!r}: {key}= given twice")
        seen.add(key)
        value = " ".join(values)
        try:
            if key == "cmd":
                # one quoted word holding a whole command line is split again
                parts = values if len(values) > 1 else shlex.split(values[0])
                command.extend(parts)
            elif key == "arg":
                command.append(value)
            elif key == "name":
                spec.name = value
            elif key == "dir":
                spec.cwd = value
            elif key == "tc":
                TimeControl.parse(value)
                spec.tc = value
            elif key == "st":
                spec.movetime = float(value)
                if spec.movetime <= 0:
                    raise ValueError("st must be above 0")
            elif key == "depth":
                spec.depth = int(value)
                if spec.depth < 1:
                    raise ValueError("depth must be at least 1")
            elif key == "nodes":
                spec.nodes = int(value)
                if spec.nodes < 1:
                    raise ValueError("nodes must be at least 1")
            elif key == "timemargin":
                spec.timemargin = float(value) / 1000.0
            else:
                spec.options[key[len("option.") :]] = value
        except ValueError as exc:
            raise ValueError(f"engine {text!r}: {key}={value!r}: {exc}") from None
    if not command:
        raise ValueError(f"engine {text!r}: no command (cmd=...)")
    return spec


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
