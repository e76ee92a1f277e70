"""cutechess-cli and fastchess spellings of the arbiter's options, turned into canter's
before click parses them (docs/arbiter.md, "cutechess-cli and fastchess spellings"), so
that a command line written for those tools runs here as its users expect."""

from __future__ import annotations

import re
import shlex

import click

# Every option also takes one dash (`-concurrency 2`, `-tc 40/60`), as cutechess-cli and
# fastchess write theirs. These are the cutechess-cli names that differ from canter's:
_RENAMED = {"-pgnout": "--pgn", "-srand": "--seed", "-tournament": "--format"}
# Options whose value cutechess-cli writes as separate `key=value` words
# (`-engine cmd=canter name=a`, `-draw movenumber=40 movecount=8 score=10`).
_ENGINE_FIELDS = ("--engine", "--each")
_WORD_LISTS = (*_ENGINE_FIELDS, "--draw", "--resign", "--sprt")
# cutechess-cli / fastchess options canter has no counterpart for, with what to do instead.
_UNSUPPORTED = {
    "-maxmoves": "use --maxplies N (plies, not full moves)",
    "-debug": "use --log FILE (every line exchanged with the engines)",
    "-log": "use --log FILE (every line exchanged with the engines)",
    "-noswap": "canter always plays each opening with every seat arrangement",
    "-reverse": "canter always plays each opening with every seat arrangement",
    "-epdout": "the game records (--pgn FILE) hold every position",
    "-pgnin": "give the file as --openings FILE",
    "-bookmode": "canter has no opening-book mode",
    "-tb": "canter has no endgame tablebases",
    "-tbpieces": "canter has no endgame tablebases",
    "-tbignore50": "canter has no endgame tablebases",
    "-ratinginterval": "the score is printed after every game",
    "-outcomeinterval": "every game's result is printed",
    "-wait": "canter starts the next game at once",
    "-site": "use --event NAME",
    "-resultformat": "canter has one result table",
    "-crc": "canter does not check book checksums",
    "-randomseed": "use --seed N with --opening-order random",
    "-autosaveinterval": "the game records are written as each game ends",
}
_OPTION_LIKE = re.compile(r"^--?[A-Za-z]")


def _words(args: list[str], i: int) -> list[str]:
    """The words after args[i] up to the next option (cutechess-cli's field lists)."""
    j = i + 1
    while j < len(args) and not _OPTION_LIKE.match(args[j]) and args[j] != "--":
        j += 1
    return args[i + 1 : j]


def _count(word: str, args: list[str], i: int, ctx: click.Context | None) -> int:
    value = args[i + 1] if i + 1 < len(args) else ""
    if not value.isdecimal() or int(value) < 1:
        raise click.UsageError(f"{word} {value!r}: not a whole number of at least 1", ctx)
    return int(value)


def _openings_fields(words: list[str], ctx: click.Context | None) -> list[str]:
    """cutechess-cli's `-openings file=F order=O format=X` (or just `-openings F`)."""
    if len(words) == 1 and "=" not in words[0]:
        return ["--openings", words[0]]
    out: list[str] = []
    for word in words:
        key, eq, value = word.partition("=")
        if key == "file" and eq:
            out += ["--openings", value]
        elif key == "order" and eq:
            out += ["--opening-order", value]
        elif key == "format" and eq:
            pass  # canter tells its openings formats apart by their content
        else:
            raise click.UsageError(
                f"-openings {word!r} is not supported (file=FILE [order=sequential|random] "
                "[format=...]; canter plays every opening from its start point)", ctx)
    if "--openings" not in out:
        raise click.UsageError("-openings needs file=FILE", ctx)
    return out


def _pgnout_fields(words: list[str], ctx: click.Context | None) -> list[str]:
    """cutechess-cli's `-pgnout FILE` or fastchess's `-pgnout file=FILE`."""
    if not words:
        raise click.UsageError("-pgnout needs a FILE", ctx)
    first = words[0]
    path = first[len("file="):] if first.startswith("file=") else first
    if len(words) > 1 or not path:
        extra = " ".join(words[1:]) or first
        raise click.UsageError(
            f"-pgnout {extra!r} is not supported (canter writes every game in full: "
            "-pgnout FILE)", ctx)
    return ["--pgn", path]


def cutechess_args(args: list[str], command: click.Command,
                   ctx: click.Context | None = None) -> list[str]:
    """Rewrite cutechess-cli/fastchess spellings into canter's options (docs/arbiter.md,
    "cutechess-cli and fastchess spellings"); canter's own spellings pass unchanged."""
    params = command.get_params(ctx) if ctx is not None else command.params
    options = [p for p in params if isinstance(p, click.Option)]
    known = {name for p in options for name in p.opts}
    takes_value = {name for p in options if not p.is_flag for name in p.opts}
    out: list[str] = []
    cc_games: int | None = None
    cc_rounds: int | None = None
    canter_count: str | None = None
    repeat = False
    fields_before = False  # the word before this one ended an engine's field list
    i = 0
    while i < len(args):
        word = args[i]
        after_fields, fields_before = fields_before, False
        if word == "--":
            out += args[i:]
            break
        if word.startswith("--"):
            name = word.partition("=")[0]
            _elsewhere(name, known, command.name, ctx)
            if name in ("--games", "--rounds"):
                canter_count = name
            if "=" in word or name not in takes_value:
                out.append(word)
                i += 1
            elif name in _WORD_LISTS:
                words = _words(args, i)
                if not words:
                    raise click.UsageError(f"{name} needs key=value fields", ctx)
                if len(words) > 1:
                    # one field per word: quote each so the one-string parser reads it back
                    joined = shlex.join(words) if name in _ENGINE_FIELDS else " ".join(words)
                    out += [name, joined]
                elif (name in _ENGINE_FIELDS and ("'" in words[0] or '"' in words[0])
                      and not any(c.isspace() for c in words[0])):
                    out += [name, shlex.join(words)]  # (one field: a quote in it is text)
                else:
                    out += [name, *words]  # (a whole spec given in canter's one string)
                i += 1 + len(words)
                fields_before = name in _ENGINE_FIELDS
            else:
                out += args[i : i + 2]
                i += 2
            continue
        if not _OPTION_LIKE.match(word) or word in known:
            out.append(word)  # -h, or a stray word click will report
            i += 1
            continue
        if word in _UNSUPPORTED:
            raise click.UsageError(
                f"{word} (cutechess-cli/fastchess) is not supported: {_UNSUPPORTED[word]}", ctx)
        if word in ("-games", "-rounds"):
            if word == "-games":
                cc_games = _count(word, args, i, ctx)
            else:
                cc_rounds = _count(word, args, i, ctx)
            i += 2
        elif word == "-repeat":
            # cutechess-cli's `-repeat [N]`: canter plays each opening with every seat
            # arrangement anyway; a count other than 2 cannot be honoured
            repeat = True
            i += 1
            if i < len(args) and args[i].isdecimal():
                if args[i] != "2":
                    raise click.UsageError(
                        f"-repeat {args[i]} is not supported: canter plays each opening once "
                        "per seat arrangement", ctx)
                i += 1
        elif word == "-recover":
            i += 1  # canter always starts a fresh process after a crash and plays on
        elif word == "-openings" and "--openings" in known:
            words = _words(args, i)
            out += _openings_fields(words, ctx)
            i += 1 + len(words)
        elif word == "-pgnout" and "--pgn" in known:
            words = _words(args, i)
            out += _pgnout_fields(words, ctx)
            i += 1 + len(words)
        else:
            target = _RENAMED.get(word, "-" + word)
            _elsewhere(target, known, command.name, ctx, word)
            if target not in known:
                hint = (f" (an engine's command with options goes in one field, quoted: "
                        f"\"cmd=python -m canter\", or add it with arg={word})"
                        if after_fields else "")
                raise click.UsageError(f"no such option: {word}{hint}", ctx)
            args = [*args[:i], target, *args[i + 1 :]]
    if cc_games is not None or cc_rounds is not None:
        if canter_count is not None:
            raise click.UsageError(
                f"{canter_count} and cutechess-cli's -games/-rounds count games differently: "
                "give one kind", ctx)
        if repeat and cc_games is None:
            # cutechess-cli's -repeat leaves the count at -rounds, fastchess's doubles it
            raise click.UsageError("-repeat with -rounds: give -games 2 (or 1) as well, so the "
                                   "number of games is -games x -rounds", ctx)
        out += ["--games", str((cc_games or 1) * (cc_rounds or 1))]
    return out


class ArbiterCommand(click.Command):
    """A click command that also reads cutechess-cli/fastchess spellings."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        return super().parse_args(ctx, cutechess_args(list(args), self, ctx))


def cutechess_help(command: str) -> str:
    """The help's list of the cutechess-cli/fastchess spellings `command` (match or
    tournament) reads: only those of options it has."""
    match = command == "match"
    return "\n".join([
        "\b",
        "cutechess-cli and fastchess spellings are accepted too:",
        "  one dash for every option (-concurrency 2, -tc 40/60+0.5, -variant, -event"
        + (")" if match else ", -seeds)"),
        "  -engine cmd=canter name=a option.Hash=16   fields as separate words (also --engine)",
        "  -each tc=40/60 option.Hash=16              fields for every engine",
        "  -games G -rounds R                         G x R games per encounter, as "
        "cutechess-cli",
        "  -pgnout FILE (or file=FILE)                --pgn FILE",
        "  -openings file=F [order=O] [format=X]      --openings F --opening-order O",
        ("  -draw/-resign/-sprt key=value ...          the fields as separate words" if match
         else "  -draw/-resign key=value ...                the fields as separate words"),
        ("  -srand N                                   --seed N" if match
         else "  -srand N, -tournament FORMAT               --seed N, --format FORMAT"),
        "  -repeat, -recover                          what canter always does",
        "",
    ])


# Options one of the two commands has and the other has not: named in the error, so that
# a cutechess-cli line given to the wrong command says which one takes it.
_OTHER_COMMAND = {"--seeds": "tournament", "--format": "tournament", "--sprt": "match"}


def _elsewhere(name: str, known: set[str], this: str | None, ctx: click.Context | None,
               given: str | None = None) -> None:
    """A usage error if `name` (spelt `given` on the command line) is an option of the
    other arbiter command only (`this`: the command's name)."""
    other = _OTHER_COMMAND.get(name)
    if other is not None and name not in known:
        shown = (given or name) if (given or name).lstrip("-") == name.lstrip("-") \
            else f"{given} ({name})"
        raise click.UsageError(f"{shown} is an option of 'canter {other}', not of "
                               f"'canter {this}'", ctx)


