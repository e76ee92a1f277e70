"""Engine options as data: name, type, default, range or choices, and value checking.

Dialects only present these (UCI `option name ... type ...`, a CECP `feature option=`), and
the session applies them; the types are the UCI ones (check, spin, combo, button, string).
The rules options are generated from the rules library's `Rules` dataclass, so a ruling
added there appears here without protocol changes.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from canter.protocol.lines import parse_whole

CHECK, SPIN, COMBO, BUTTON, STRING = "check", "spin", "combo", "button", "string"

RULE_PREFIX = "Rule "


@dataclass(frozen=True)
class OptionSpec:
    name: str
    kind: str
    default: object = None
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()
    rule_field: str | None = None  # the `Rules` field this option sets, if a rules option

    @property
    def key(self) -> str:
        return option_key(self.name)

    def parse(self, text: str | None) -> object:
        """The typed value for `text`, or ValueError with a message fit for the client."""
        if self.kind == BUTTON:
            return None
        if text is None:
            raise ValueError(f"option '{self.name}' needs a value")
        if self.kind == CHECK:
            low = text.lower()
            if low not in ("true", "false"):
                raise ValueError(f"option '{self.name}' takes true or false")
            return low == "true"
        if self.kind == SPIN:
            try:
                value = parse_whole(text)
            except ValueError:
                raise ValueError(f"option '{self.name}' takes a whole number") from None
            except OverflowError:
                value = self.max + 1  # out of range, and said so below
            if not (self.min <= value <= self.max):
                raise ValueError(f"option '{self.name}' takes {self.min} to {self.max}")
            return value
        if self.kind == COMBO:
            for choice in self.choices:
                if choice.lower() == text.lower():
                    return choice
            raise ValueError(f"option '{self.name}' takes one of: {', '.join(self.choices)}")
        # STRING. `uci` shows an empty default as <empty>, and GUIs send that text back
        # to mean the empty string (as Stockfish reads it).
        return "" if text == "<empty>" else text


def option_key(name: str) -> str:
    """Option names compare without case and with any run of whitespace as one space."""
    return " ".join(name.split()).lower()


def rule_option_name(field_name: str) -> str:
    return RULE_PREFIX + field_name.replace("_", " ").title()


def rule_options(rules: object) -> list[OptionSpec]:
    """One option per field of a `Rules` value, its defaults taken from that value."""
    choices = getattr(type(rules), "CHOICES", {})
    specs = []
    for f in fields(rules):
        value = getattr(rules, f.name)
        name = rule_option_name(f.name)
        if isinstance(value, bool):
            spec = OptionSpec(name, CHECK, value, rule_field=f.name)
        elif isinstance(value, int):
            spec = OptionSpec(name, SPIN, value, 0, 100_000, rule_field=f.name)
        elif f.name in choices:
            spec = OptionSpec(name, COMBO, value, choices=tuple(choices[f.name]),
                              rule_field=f.name)
        else:
            spec = OptionSpec(name, STRING, str(value), rule_field=f.name)
        specs.append(spec)
    return specs


# Search options. Defaults here are what the session gives a new searcher.
HASH = OptionSpec("Hash", SPIN, 16, 1, 4096)
CLEAR_HASH = OptionSpec("Clear Hash", BUTTON)
# Processes that search (Lazy SMP over a shared table, docs/search.md "Threads").
THREADS = OptionSpec("Threads", SPIN, 1, 1, 64)
MULTIPV = OptionSpec("MultiPV", SPIN, 1, 1, 64)
PONDER = OptionSpec("Ponder", CHECK, False)
MOVE_OVERHEAD = OptionSpec("Move Overhead", SPIN, 30, 0, 5000)
SKILL = OptionSpec("Skill Level", SPIN, 20, 0, 20)
THREE_SEAT = OptionSpec("Three Seat Search", COMBO, "paranoid",
                        choices=("paranoid", "brs", "brs+", "maxn"))
OPPONENT_MOVES = OptionSpec("Three Seat Opponent Moves", SPIN, 3, 0, 64)
READ_OPPONENTS = OptionSpec("Three Seat Read Opponents", CHECK, True)
# A JSON file of evaluation weights (bench/texel_tune.py writes one); empty = built in.
EVAL_FILE = OptionSpec("EvalFile", STRING, "")
# Search features on or off by name (`lmr=1,pvs=1`; docs/protocol.md): for strength tests
# of a build against itself. Empty = the defaults.
SEARCH_SWITCHES = OptionSpec("Search Switches", STRING, "")
# The opening book (docs/book.md): used for moves on the clock, never in analysis.
OWN_BOOK = OptionSpec("OwnBook", CHECK, True)
# A book file in the book format; empty = the book shipped for the game being played.
BOOK_FILE = OptionSpec("BookFile", STRING, "")
# Endgame tables (docs/tables.md): probed by the search in two-sided endings with few pieces.
USE_TABLES = OptionSpec("UseTables", CHECK, True)
# The folder of built tables; empty = $CANTER_TABLES or ~/.cache/canter/tables. The tables
# shipped in the package are used too.
TABLE_PATH = OptionSpec("TablePath", STRING, "")


def engine_options(variant_names: tuple[str, ...], default_variant: str,
                   rules: object) -> list[OptionSpec]:
    """Every option, in the order a GUI shows them."""
    variant = OptionSpec("UCI_Variant", COMBO, default_variant, choices=tuple(variant_names))
    return [variant, HASH, CLEAR_HASH, THREADS, MULTIPV, PONDER, MOVE_OVERHEAD, SKILL,
            THREE_SEAT, OPPONENT_MOVES, READ_OPPONENTS, EVAL_FILE, SEARCH_SWITCHES,
            OWN_BOOK, BOOK_FILE, USE_TABLES, TABLE_PATH, *rule_options(rules)]
