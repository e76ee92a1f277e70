"""Game records: a PGN-like text format for the games of the family (docs/game-records.md).

    from canter.adapters.records.format import GameRecord, read_games, write_game

    game = GameRecord.new("camelot", ["canter", "other"], event="test match", round="1")
    game.add_move("D6-F8", score="+0.12", depth=5, time=0.53)
    game.set_result("1-0", termination="normal", reason="white wins: ...")
    text = write_game(game)
    games = list(read_games(text))

Reading never consults the rules; `replay_game` does (canter.engine, imported lazily so a
plain reader/writer stays light).
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import IO

__all__ = [
    "GameRecord",
    "MoveComment",
    "RecordError",
    "ReplayResult",
    "VARIANT_TAGS",
    "SEAT_TAGS",
    "read_games",
    "read_games_file",
    "decode_records",
    "bom_length",
    "write_game",
    "write_games",
    "parse_result",
    "result_token",
    "result_from_ranking",
    "replay_game",
    "rules_tag",
    "parse_rules_tag",
    "score_text",
]

# canter variant name -> value of the Variant tag, and the seat tags in seat order.
# Spelled out here rather than read from the variants so that reading a record needs no
# rules code; tests/test_family_records.py checks they cover every variant.
VARIANT_TAGS = {
    "camelot": "Camelot",
    "tri-camelot": "Tri-Camelot",
    "cam": "Cam",
    "camette": "Camette",
    "chivalry": "Chivalry",
    "grand-cam": "Grand Cam",
}
SEAT_TAGS = {
    "camelot": ("White", "Black"),
    "tri-camelot": ("Blue", "Red", "Green"),
    "cam": ("White", "Black"),
    "camette": ("White", "Black"),
    "chivalry": ("White", "Black"),
    "grand-cam": ("Red", "Green", "Blue", "Yellow"),
}

# Team games: the partnerships, first team first (the seats of the first team have the odd
# points of the result token: Red and Blue are seats 1 and 3).
TEAM_TAGS = {"grand-cam": "Red+Blue v Green+Yellow"}

# Tags written first, in this order (the "seven tag roster" of PGN, adapted); the seat
# tags take the place of White/Black.
ROSTER_HEAD = ("Event", "Site", "Date", "Round", "Variant")
ROSTER_TAIL = ("Result",)

UNFINISHED = "*"
TERMINATIONS = (
    "normal",
    "adjudication",
    "time forfeit",
    "illegal move",
    "crash",
    "stall",
    "protocol error",
    "max plies",
    "abandoned",
    "unterminated",
)


class RecordError(ValueError):
    """A game record that cannot be read; `line` is 1-based (0 if unknown)."""

    def __init__(self, line: int, message: str, game: int | None = None) -> None:
        self.line = line
        self.game = game
        self.message = message
        where = f"line {line}" if line else "record"
        if game is not None:
            where = f"game {game}, {where}"
        super().__init__(f"{where}: {message}")


# ---------------------------------------------------------------- results


def parse_result(token: str, nseats: int) -> tuple[Fraction, ...] | None:
    """ "1-0" -> (1, 0); "1/3-1/3-1/3" -> thirds; "*" -> None. ValueError if malformed or
    if the points do not add up to 1."""
    if token == UNFINISHED:
        return None
    parts = token.split("-")
    if len(parts) != nseats:
        raise ValueError(f"result {_q(token)} does not have {nseats} parts")
    try:
        points = tuple(Fraction(p) for p in parts)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"result {_q(token)} is not made of numbers like 1, 0, 1/2") from None
    if any(p < 0 or p > 1 for p in points) or sum(points) != 1:
        raise ValueError(f"the points of result {_q(token)} must lie in 0..1 and add up to 1")
    # The seats with points share the point equally (a win, or a place shared), each
    # written as the writers write it: 1, 0 or 1/k.
    shares = {p for p in points if p}
    if len(shares) != 1 or token != result_token(points):
        raise ValueError(f"result {_q(token)}: the seats with points share one point "
                         "equally, written 1, 0 or 1/k (1/2-1/2, 1/3-1/3-1/3)")
    return points


def result_token(points: Sequence[Fraction | int | float] | None) -> str:
    """(1, 0) -> "1-0"; (1/2, 1/2) -> "1/2-1/2"; None -> "*"."""
    if points is None:
        return UNFINISHED
    return "-".join(str(Fraction(p).limit_denominator(12)) for p in points)


def result_from_ranking(ranking: Sequence[Sequence[int]] | None, nseats: int) -> str:
    """The token for a ranking of seat indices, best first (canter's Outcome.ranking): the
    k seats sharing first place get 1/k each, the others 0."""
    if ranking is None:
        return UNFINISHED
    points = [Fraction(0)] * nseats
    for seat in ranking[0]:
        points[seat] = Fraction(1, len(ranking[0]))
    return result_token(points)


# ---------------------------------------------------------------- the record


@dataclass
class MoveComment:
    """What may follow a move in braces: `{+0.34/12 1.25s}` (score/depth, then time in
    seconds) and any free text after it. Scores: signed pawns-like units with two decimals,
    or `#N` / `#-N` for a win / loss in N own moves."""

    score: str | None = None
    depth: int | None = None
    time: float | None = None
    text: str = ""

    # At most 9 digits of depth (more is text): int() refuses strings of over 4,300.
    _RE = re.compile(
        r"^\s*(?P<score>[+-]\d+(?:\.\d+)?|#-?\d+)/(?P<depth>\d{1,9})(?!\d)"
        r"(?:\s+(?P<time>\d+(?:\.\d+)?)s\b)?\s*(?P<rest>.*)$",
        re.DOTALL,
    )

    @classmethod
    def parse(cls, text: str) -> MoveComment:
        m = cls._RE.match(text)
        if m is None:
            return cls(text=text.strip())
        return cls(
            score=m["score"],
            depth=int(m["depth"]),
            time=float(m["time"]) if m["time"] else None,
            text=m["rest"].strip(),
        )

    def render(self) -> str:
        parts = []
        if self.score is not None:
            parts.append(f"{self.score}/{self.depth if self.depth is not None else 0}")
            if self.time is not None and math.isfinite(self.time) and self.time >= 0:
                # (no time is negative or not a number: the reader would take it for text)
                parts.append(f"{self.time:.3f}".rstrip("0").rstrip(".") + "s")
        if self.text:
            parts.append(_one_line(self.text).replace("}", ")"))
        return " ".join(parts)


def _rendered(comment: MoveComment | None) -> str:
    """A move's comment as written, "" for none: one that says nothing the format can
    carry (a time with no score) is left out rather than written as `{}`."""
    return comment.render() if comment is not None else ""


def score_text(cp: int | None = None, win: int | None = None) -> str:
    """Comment score for a centi-unit score or a win/loss in N moves (client Score)."""
    if win is not None:
        return f"#{win}" if win >= 0 else f"#-{-win}"
    return f"{(cp or 0) / 100:+.2f}"


@dataclass
class GameRecord:
    """One game: tags (ordered), moves in official notation, a comment per move (or None),
    the result token. `line` is where the game starts in the file it was read from."""

    tags: dict[str, str] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    comments: list[MoveComment | None] = field(default_factory=list)
    result: str = UNFINISHED
    preamble: str = ""  # a comment before the first move
    line: int = 0
    move_lines: list[int] = field(default_factory=list)  # source line of each move

    @classmethod
    def new(
        cls,
        variant: str,
        players: Sequence[str],
        *,
        event: str = "?",
        site: str = "?",
        date: str = "????.??.??",
        round: str = "?",
        position: str | None = None,
        time_control: str | None = None,
        rules: object | None = None,
        **extra: str,
    ) -> GameRecord:
        """A record with the roster tags filled. `variant` is a canter variant name,
        `players` one name per seat in seat order, `position` a start position string (None
        for the standard start), `rules` a canter.engine.Rules (only the fields that differ
        from the variant's defaults are written, in a Rules tag). `extra` tags are added as
        given (e.g. Annotator="x")."""
        key = variant.lower()
        if key not in SEAT_TAGS:
            raise ValueError(f"unknown variant {_q(variant)} (known: {', '.join(SEAT_TAGS)})")
        seats = SEAT_TAGS[key]
        if len(players) != len(seats):
            raise ValueError(f"{VARIANT_TAGS[key]} has {len(seats)} seats, not {len(players)}")
        tags = {"Event": event, "Site": site, "Date": date, "Round": round}
        tags["Variant"] = VARIANT_TAGS[key]
        for seat, player in zip(seats, players, strict=True):
            tags[seat] = player
        tags["Result"] = UNFINISHED
        if key in TEAM_TAGS:
            tags["Teams"] = TEAM_TAGS[key]
        if time_control is not None:
            tags["TimeControl"] = time_control
        if position is not None:
            tags["SetUp"] = "1"
            tags["Position"] = position
        if rules is not None:
            text = rules_tag(key, rules)
            if text:
                tags["Rules"] = text
        tags.update(extra)
        return cls(tags=tags)

    # -- what the tags say

    @property
    def variant(self) -> str:
        """canter variant name from the Variant tag (default camelot, as PGN's standard)."""
        # The tag is the game's title ("Grand Cam"); the name joins words with '-'.
        value = "-".join(self.tags.get("Variant", "Camelot").strip().lower().split())
        if value not in SEAT_TAGS:
            raise ValueError(f"unknown Variant {_q(self.tags.get('Variant'))}")
        return value

    @property
    def seat_tags(self) -> tuple[str, ...]:
        return SEAT_TAGS[self.variant]

    @property
    def players(self) -> list[str]:
        return [self.tags.get(seat, "?") for seat in self.seat_tags]

    @property
    def start_position(self) -> str | None:
        """The Position tag, or None for the standard start."""
        return self.tags.get("Position") or self.tags.get("FEN") or None

    @property
    def rule_overrides(self) -> dict[str, str | int | bool]:
        """The Rules tag as {field: value}: `repetition=claim quiet_limit=0` ->
        {"repetition": "claim", "quiet_limit": 0}. ValueError if malformed."""
        return parse_rules_tag(self.tags.get("Rules", ""))

    @property
    def points(self) -> tuple[Fraction, ...] | None:
        return parse_result(self.result, len(self.seat_tags))

    # -- building

    def add_move(
        self,
        move: str,
        *,
        score: str | None = None,
        depth: int | None = None,
        time: float | None = None,
        text: str = "",
    ) -> None:
        comment = None
        if score is not None or time is not None or text:
            comment = MoveComment(score=score, depth=depth, time=time, text=text)
        self.moves.append(move)
        self.comments.append(comment)

    def set_result(
        self, token: str, *, termination: str | None = None, reason: str | None = None
    ) -> None:
        parse_result(token, len(self.seat_tags))  # raises if malformed
        self.result = token
        self.tags["Result"] = token
        if termination is not None:
            self.tags["Termination"] = termination
        if reason is not None:
            self.tags["Reason"] = reason
        self.tags["PlyCount"] = str(len(self.moves))


def parse_rules_tag(text: str) -> dict[str, str | int | bool]:
    values: dict[str, str | int | bool] = {}
    for item in text.split():
        key, sep, raw = item.partition("=")
        if not sep or not key or not raw:
            raise ValueError(f"Rules tag: {_q(item)} is not field=value")
        if key in values:
            raise ValueError(f"Rules tag: {_q(key)} is given twice")
        value: str | int | bool = raw
        if raw in ("true", "false"):
            value = raw == "true"
        elif raw.isascii() and raw.lstrip("-").isdecimal():
            if len(raw) > 12:  # (no ruling counts that far; int() refuses 4,300 digits)
                raise ValueError(f"Rules tag: {key}={raw[:20]}... is too large")
            value = int(raw)
        values[key] = value
    return values


def rules_tag(variant: str, rules: object) -> str:
    """The Rules tag text for a canter.engine.Rules: fields differing from the variant's
    defaults, `field=value` separated by spaces ("" when all are the defaults)."""

    from canter.engine import Rules, get_variant

    game = get_variant(variant)
    default = Rules.for_variant(game)
    if isinstance(rules, Rules):
        rules = rules.for_game(game)  # (rulings it leaves to the game are the game's)
    parts = []
    for f in dataclasses.fields(default):
        value = getattr(rules, f.name)
        if value != getattr(default, f.name):
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            parts.append(f"{f.name}={text}")
    return " ".join(parts)


def _q(text: object) -> str:
    """A piece of the input quoted in a message: at most 40 characters of it (a record's
    line may be megabytes long, and an error that repeated it would bury the reason)."""
    from canter.engine.rules.text import shorten

    return repr(shorten(str(text)))


# ---------------------------------------------------------------- writing


# Control characters and the Unicode line and paragraph separators (which str.splitlines
# breaks on): text from an engine may hold them, and a record keeps to one line per tag.
_UNPRINTABLE_RE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def _one_line(text: str) -> str:
    return _UNPRINTABLE_RE.sub(" ", text)


def _escape(value: str) -> str:
    return _one_line(value.replace("\\", "\\\\").replace('"', '\\"'))


def _ordered_tags(game: GameRecord) -> list[tuple[str, str]]:
    tags = dict(game.tags)
    tags["Result"] = game.result
    try:
        seats = game.seat_tags
    except ValueError:
        seats = ()
    order = [*ROSTER_HEAD, *seats, *ROSTER_TAIL]
    head = [(k, tags.pop(k)) for k in order if k in tags]
    return head + list(tags.items())


def _check_writable(game: GameRecord) -> None:
    """ValueError unless the reader will read the game back: records are appended, and one
    it cannot read would make every later game of the file unreadable too."""
    for key, _ in _ordered_tags(game):
        if not _TAG_NAME_RE.fullmatch(key):
            raise ValueError(f"tag name {_q(key)} is not letters, digits and _")
    for move in game.moves:
        if not _MOVE_RE.match(move):
            raise ValueError(f"move {_q(move)} is not in official notation (C6-E8, F7xF9)")
    if not RESULT_RE.match(game.result):
        raise ValueError(f"result {_q(game.result)} is not a result token (1-0, 1/2-1/2, *)")
    # The reader refuses a game of a variant it does not know (ValueError here too).
    parse_result(game.result, len(game.seat_tags))


def write_game(game: GameRecord, width: int = 80) -> str:
    """The text of one game, ending with an empty line (games are separated by one).
    ValueError for a game the reader would refuse (a tag name that is not letters, digits
    and _, a move that is no official notation, a result that is no result token)."""
    _check_writable(game)
    lines = [f'[{key} "{_escape(value)}"]' for key, value in _ordered_tags(game)]
    lines.append("")
    words: list[str] = []
    if game.preamble:
        words.append("{" + _one_line(game.preamble).replace("}", ")") + "}")
    # Move numbers are for people and readers ignore them: one per round of `nseats` moves.
    # The writer does not apply the rules, so after a Tri-Camelot pass or elimination a
    # number no longer falls on Blue's move; it still counts rounds of three moves.
    try:
        nseats = len(game.seat_tags)
    except ValueError:
        nseats = 2
    seat = _first_seat(game, nseats)
    number = _first_number(game, nseats)
    movers = _team_game_movers(game)
    for i, move in enumerate(game.moves):
        if movers is not None:
            # Team games (FAMILY-RULES §10): a round is Red, Green, Blue, Yellow; a seat
            # that is out or passes is simply missing, and the next round starts at the
            # first seat to move that does not come later in the order.
            if i and movers[i] <= movers[i - 1]:
                number += 1
            if i == 0 or movers[i] <= movers[i - 1]:
                words.append(f"{number}." if movers[i] == 0 or i else f"{number}...")
            words.append(move)
            comment = _rendered(game.comments[i] if i < len(game.comments) else None)
            if comment:
                words.append("{" + comment + "}")
            continue
        if i == 0:
            words.append(f"{number}." if seat == 0 else f"{number}...")
        elif seat == 0:
            words.append(f"{number}.")
        words.append(move)
        comment = _rendered(game.comments[i] if i < len(game.comments) else None)
        if comment:
            words.append("{" + comment + "}")
        seat += 1
        if seat == nseats:
            seat = 0
            number += 1
    words.append(game.result)
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines) + "\n\n"


def _team_game_movers(game: GameRecord) -> list[int] | None:
    """The seat that made each move of a team game, by replaying it with the rules; None
    for other games or a record that does not replay."""
    try:
        key = game.variant
    except ValueError:
        return None
    if key not in TEAM_TAGS:
        return None
    from canter.engine import Position, parse_move

    try:
        pos = (Position.from_string(game.start_position) if game.start_position
               else Position.start(key))
        movers = []
        for text in game.moves:
            movers.append(pos.turn)
            pos.push(parse_move(pos, text))
    except ValueError:
        return None
    return movers


def _first_seat(game: GameRecord, nseats: int) -> int:
    # Seat to move at the start: from the position string's turn field when set up.
    position = game.start_position
    if position is None:
        return 0
    fields = position.split()
    if len(fields) >= 3:
        letter = fields[2].lower()
        order = {2: "wb", 3: "brg", 4: "rgby"}.get(nseats, "")
        if letter in order:
            return order.index(letter)
    return 0


def _first_number(game: GameRecord, nseats: int) -> int:
    # The position string ends with the ply count.
    position = game.start_position
    if position is not None:
        fields = position.split()
        if fields and fields[-1].isdecimal():
            return int(fields[-1]) // nseats + 1
    return 1


def write_games(games: Iterable[GameRecord], stream: IO[str]) -> None:
    for game in games:
        stream.write(write_game(game))


# ---------------------------------------------------------------- reading

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')
_TAG_NAME_RE = re.compile(r"[A-Za-z0-9_]+")
_NUMBER_RE = re.compile(r"^(\d+)(\.+)")
RESULT_RE = re.compile(r"^(?:\*|\d+(?:/\d+)?(?:-\d+(?:/\d+)?)+)$")  # a result token
# Files A-N, ranks 1-18: every board of the family.
_CELL = r"[A-Na-n](?:1[0-8]|[1-9])"
# Official notation (cells joined by - or x), or the bare two-cell form the rules library
# also reads (`d6f8`).
_MOVE_RE = re.compile(rf"^{_CELL}(?:(?:[-xX]{_CELL})+|{_CELL})$")


@dataclass
class _Token:
    kind: str  # tag | comment | word
    text: str
    line: int
    value: str = ""
    last: bool = False  # a word nothing follows in the file (but white space)
    at_end: bool = False  # a word the text ends in, not even a line end after it


def _tokens(text: str, cut_ok: bool = False) -> Iterator[_Token]:
    """The tags, comments and words of `text`. With `cut_ok` (a file a writer may have been
    cut off in), a comment still open at the end ends the text instead of raising."""
    # Lines end at a newline only (not at every break str.splitlines knows), as the
    # arbiter counts them when it resumes a file.
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    final = len(lines)  # the line number of the last line with anything on it
    while final > 1 and not lines[final - 1].strip():
        final -= 1
    n = 0
    while n < len(lines):
        raw = lines[n]
        lineno = n + 1
        n += 1
        stripped = raw.strip()
        if stripped.startswith("%"):
            continue  # PGN escape line
        if stripped.startswith("["):
            pos = 0
            body = stripped
            while pos < len(body):
                m = _TAG_RE.match(body, pos)
                if m is None:
                    raise RecordError(lineno, f"malformed tag pair: {_q(body[pos:])}")
                # Only \" and \\ are escapes; any other backslash stands for itself.
                value = re.sub(r'\\(["\\])', r"\1", m[2])
                yield _Token("tag", m[1], lineno, value)
                pos = m.end()
                while pos < len(body) and body[pos].isspace():
                    pos += 1
            continue
        i = 0
        while i < len(raw):
            c = raw[i]
            if c.isspace():
                i += 1
            elif c == ";":
                break  # comment to the end of the line
            elif c == "{":
                start_line = lineno
                close = raw.find("}", i + 1)
                parts = []
                if close >= 0:
                    parts.append(raw[i + 1 : close])
                    i = close + 1
                else:
                    parts.append(raw[i + 1 :])
                    while True:
                        if n >= len(lines):
                            if cut_ok:
                                return
                            raise RecordError(start_line, "comment '{' is never closed")
                        raw = lines[n]
                        lineno = n + 1
                        n += 1
                        close = raw.find("}")
                        if close >= 0:
                            parts.append(raw[:close])
                            i = close + 1
                            break
                        parts.append(raw)
                yield _Token("comment", " ".join(p.strip() for p in parts).strip(), start_line)
            elif c in "()":
                raise RecordError(lineno, "variations '(...)' are not supported")
            else:
                j = i
                while j < len(raw) and not raw[j].isspace() and raw[j] not in "{;()":
                    j += 1
                yield _Token("word", raw[i:j], lineno,
                             last=lineno == final and not raw[j:].strip(),
                             at_end=lineno == len(lines) and j == len(raw))
                i = j


def read_games(text: str, *, allow_unterminated: bool = False) -> Iterator[GameRecord]:
    """Every game in `text`, in order. Whitespace, `{...}` and `;` comments, `%` lines, move
    numbers and NAGs (`$3`) are tolerated. A game ends with its result token; a RecordError
    names the line of anything malformed. With `allow_unterminated`, a last game cut off
    before its result token (an interrupted writer) is returned with result "*" instead of
    raising; so is one cut inside a comment or a result, and one that ends in a move with
    not even a line end after it, without that move: the writer may have been cut off
    inside it (`C6-E8` of `C6-E8-G8`). A byte-order mark at the start is no part of the
    record."""
    if text.startswith("\ufeff"):
        text = text[1:]
    game: GameRecord | None = None
    in_moves = False
    number = 0
    opening = ""  # a comment before anything else

    def fresh(line: int) -> GameRecord:
        nonlocal number
        number += 1
        return GameRecord(line=line)

    try:
        for tok in _tokens(text, cut_ok=allow_unterminated):
            if tok.kind == "tag":
                if game is not None and in_moves:
                    raise RecordError(
                        tok.line, "tag pair inside movetext (the game before has no result)"
                    )
                if game is None:
                    game, opening = fresh(tok.line), ""
                if tok.text in game.tags:
                    raise RecordError(tok.line, f"tag {tok.text} appears twice")
                game.tags[tok.text] = tok.value
                continue
            if game is None and tok.kind == "comment":
                # Between games (after a result, before the next tags) a comment is no
                # game's; before the first game it is the file's, unless moves follow with
                # no tags, which makes it that game's preamble.
                if not number:
                    opening = (opening + " " + tok.text).strip()
                continue
            if game is None:
                game = fresh(tok.line)
                game.preamble, opening = opening, ""
            in_moves = True
            if tok.kind == "comment":
                if game.moves:
                    index = len(game.moves) - 1
                    previous = game.comments[index]
                    parsed = MoveComment.parse(tok.text)
                    if previous is not None:  # two comments on one move: keep both texts
                        parsed = MoveComment(
                            previous.score,
                            previous.depth,
                            previous.time,
                            (previous.text + " " + tok.text).strip(),
                        )
                    game.comments[index] = parsed
                else:
                    game.preamble = (game.preamble + " " + tok.text).strip()
                continue
            word = tok.text
            if word.startswith("$") and word[1:].isdigit():
                continue  # NAG
            m = _NUMBER_RE.match(word)
            if m is not None:
                word = word[m.end() :]
                if not word:
                    continue
            if word == "--":
                # A four-column display's mark of a skipped seat (FAMILY-RULES R26): it is
                # no move; replaying the record checks that the moves themselves are legal.
                continue
            if RESULT_RE.match(word):
                try:
                    _finish(game, word, tok.line)
                except RecordError:
                    if tok.at_end and allow_unterminated:
                        break  # (`1/2-1` of `1/2-1/2`)
                    raise
                yield game
                game = None
                in_moves = False
                continue
            if tok.at_end and allow_unterminated:
                break  # a move or result the writer may have been cut off inside
            if not _MOVE_RE.match(word):
                if tok.last:  # the file's last word: a writer cut off
                    raise RecordError(tok.line, f"the record is cut off inside a move: it "
                                      f"ends with {_q(word)}")
                raise RecordError(
                    tok.line, f"{_q(word)} is neither a move, a move number nor a result"
                )
            game.moves.append(word)
            game.comments.append(None)
            game.move_lines.append(tok.line)
    except RecordError as exc:
        if exc.game is None:  # (between games, the fault starts the next one)
            exc = RecordError(exc.line, exc.message, number if game is not None else number + 1)
        raise exc from None
    if game is None and not number and opening:
        # Nothing but a `{...}` comment: taken as a game cut off before its moves (a JSON
        # file, say, is no record), as a comment that opens a game would be.
        game = fresh(1)
        game.preamble = opening
    if game is not None and (game.moves or game.tags or game.preamble):
        if not allow_unterminated:
            raise RecordError(game.line, "the game has no result token at its end", number)
        game.result = UNFINISHED
        yield game


def _finish(game: GameRecord, token: str, line: int) -> None:
    try:
        nseats = len(game.seat_tags)
    except ValueError as exc:
        raise RecordError(game.line, str(exc)) from None
    try:
        parse_result(token, nseats)
    except ValueError as exc:
        raise RecordError(line, str(exc)) from None
    tag = game.tags.get("Result")
    if tag is not None and tag != token:
        raise RecordError(line, f"result {_q(token)} differs from the Result tag {_q(tag)}")
    game.result = token


def bom_length(data: bytes) -> int:
    """How many bytes of a UTF-8 byte-order mark `data` starts with (0 or 3): some editors
    put one first, and it is no part of the text."""
    return 3 if data.startswith(b"\xef\xbb\xbf") else 0


def decode_records(data: bytes, *, cut_off_ok: bool = False) -> str:
    """The text of a game-record file's bytes. Records are UTF-8 text: anything else (a
    binary file, another encoding) is a RecordError naming the byte, never a
    UnicodeDecodeError. With `cut_off_ok`, a character cut in two at the very end (a
    writer killed in mid-record) is left out instead. A leading byte-order mark is no part
    of the text."""
    skip = bom_length(data)
    body = data[skip:]
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        if cut_off_ok and exc.reason == "unexpected end of data" and exc.end == len(body):
            return body[: exc.start].decode("utf-8")
        line = body.count(b"\n", 0, exc.start) + 1
        raise RecordError(line, f"byte {exc.start + skip} is not UTF-8 text: not a "
                          "game-record file") from None


def read_games_file(path: str, **kwargs: bool) -> list[GameRecord]:
    from canter.adapters.files import MAX_RECORDS_INPUT, read_at_most

    with open(path, "rb") as f:
        data = read_at_most(f, MAX_RECORDS_INPUT, "a game-record file")
    return list(read_games(decode_records(data), **kwargs))


# ---------------------------------------------------------------- replaying


@dataclass
class ReplayResult:
    """What the rules make of a record. `error` is None for a valid game, else
    (ply, move, reason) with ply 1-based (0: the start position or the result)."""

    final_position: str | None
    outcome: str | None  # Outcome.text() if the rules decided the game
    rules_result: str | None  # result token the rules give, None if not decided
    error: tuple[int, str, str] | None = None


class ReplayError(ValueError):
    """A record the rules refuse: `ply` is 1-based (0: the variant, rules or start
    position), `position` the position before the refused move (None at ply 0)."""

    def __init__(self, ply: int, move: str, reason: str, position=None) -> None:
        super().__init__(f"move {ply} ({move}): {reason}" if ply else reason)
        self.ply = ply
        self.move = move
        self.reason = reason
        self.position = position


def game_positions(game: GameRecord):
    """The start position (with the record's rules), the moves and the final position,
    every move checked by canter's rules; ReplayError at the first problem."""
    from canter.engine import (
        AmbiguousMoveError,
        IllegalMoveError,
        NotationError,
        Position,
        PositionError,
        Rules,
        get_variant,
        parse_move,
    )

    try:
        variant = get_variant(game.variant)
    except (KeyError, ValueError) as exc:
        raise ReplayError(0, "", str(exc.args[0] if exc.args else exc)) from None
    try:  # each value checked as the rules options are (a type, a range, a choice)
        rules = Rules.for_variant(variant)
        for name, value in game.rule_overrides.items():
            rules = rules.with_option(name, value)
    except (ValueError, TypeError) as exc:
        raise ReplayError(0, "", f"bad Rules tag: {exc}") from None
    text = game.start_position
    try:
        start = (Position.start(variant, rules) if text is None
                 else Position.from_string(text, rules))
    except (PositionError, ValueError) as exc:
        raise ReplayError(0, "", f"bad start position: {exc}") from None
    if start.variant.name != variant.name:
        raise ReplayError(0, "", f"the Position tag is not a {variant.name} position")
    pos = start.copy()
    moves = []
    for ply, word in enumerate(game.moves, start=1):
        outcome = pos.outcome()
        if outcome is not None:
            raise ReplayError(ply, word, f"the game was already over ({outcome.text()})", pos)
        try:
            move = parse_move(pos, word)
        except AmbiguousMoveError as exc:
            raise ReplayError(ply, word, f"ambiguous: {exc}", pos) from None
        except IllegalMoveError as exc:
            raise ReplayError(ply, word, f"illegal: {exc.reason}", pos) from None
        except (NotationError, ValueError) as exc:
            raise ReplayError(ply, word, str(exc), pos) from None
        pos.push(move)
        moves.append(move)
    return start, moves, pos


def replay_game(game: GameRecord) -> ReplayResult:
    """Play every move with canter's rules. Checks: the variant and start position, each
    move's legality, no move after the game is decided, and a recorded result that
    contradicts a decided game."""
    try:
        _, _, pos = game_positions(game)
    except ReplayError as exc:
        final = exc.position.to_string() if exc.position is not None else None
        return ReplayResult(final, None, None, (exc.ply, exc.move, exc.reason))
    outcome = pos.outcome()
    rules_result = (
        result_from_ranking(outcome.ranking, pos.variant.nseats) if outcome is not None
        else None
    )
    result = ReplayResult(pos.to_string(), outcome.text() if outcome else None, rules_result)
    if rules_result is not None and game.result not in (UNFINISHED, rules_result):
        result.error = (0, game.result, f"the rules give {rules_result} ({outcome.text()})")
    elif game.result != UNFINISHED and pos.variant.teams:
        # Partners share a result: the seats with points are one team, or all of them.
        scored = {s for s, p in enumerate(game.points or ()) if p}
        teams = {pos.variant.teams[s] for s in scored}
        if len(teams) != 1 and len(scored) != pos.variant.nseats:
            result.error = (0, game.result, "partners share a result: the seats with "
                            "points must be one team, or all seats")
    return result
