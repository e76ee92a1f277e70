"""Searches whose decisions are watched, for the tests of the search's rules of thumb:
every move pruned, reduced or extended, every pass and every leaf searched against a
threat is reported to `Search.watch` (alphabeta.py) and handed to the test's `note`."""

from __future__ import annotations

import random
from collections.abc import Callable

from canter.engine import Position
from canter.engine.search.alphabeta import Search
from canter.engine.search.limits import Limits, SearchResult, StopFlag
from canter.engine.search.searcher import Searcher

Note = Callable[[str, Position, object, int, Search], None]
Seen = Callable[..., tuple[list, SearchResult]]


def game_positions(variant: str, seed: int, plies: int, every: int) -> list[Position]:
    """Positions of a seeded random game, every `every` plies, while it is on."""
    rng = random.Random(seed)
    pos = Position.start(variant)
    out = []
    for ply in range(plies):
        if pos.outcome() is not None:
            break
        moves = pos.legal_moves()
        pos.push(rng.choice(moves))
        if ply % every == every - 1 and pos.outcome() is None:
            out.append(pos.copy())
    return out


def watched(pos: Position, depth: int, note: Note, **switches: int) -> SearchResult:
    """Search `pos` to `depth` with the given search switches, calling
    note(kind, position, move, depth, search) for every decision the search reports."""
    searcher = Searcher()
    searcher._search.options.update(switches)
    search = searcher._search

    def watch(kind, at, move, remaining):
        note(kind, at, move, remaining, search)

    search.watch = watch
    return searcher.search(pos, Limits(depth=depth), lambda info: None, StopFlag())


def decisions_along(seen_of: Seen, variant: str, seed: int, plies: int, every: int,
                    depth: int, **switches: int) -> list:
    """The decisions of searches to `depth` from the positions of a seeded random game
    (`game_positions`), all in one list; each search must find a legal move, and the list
    must not be empty (so the test's checks of it check something)."""
    out: list = []
    for pos in game_positions(variant, seed, plies=plies, every=every):
        seen, result = seen_of(pos, depth, **switches)
        assert result.best in pos.legal_moves()
        out.extend(seen)
    assert out, "no decision to check: the searches never met the case"
    return out


def assert_gated(seen_of: Seen, switch: str, depth: int, pos: Position,
                 never: tuple[tuple[str, int], ...], never_depth: int | None = None) -> None:
    """A switch of the search acts in `pos` when on and not at all when off (as in play),
    and never in the games of `never` ((variant, seed) of a random game), whose searches
    still find a legal move (searched to `never_depth`, if given). `seen_of(pos, depth,
    **switches)` returns (decisions, result)."""
    seen, _ = seen_of(pos, depth, **{switch: 1})
    assert seen
    seen, _ = seen_of(pos, depth, **{switch: 0})
    assert seen == []
    for variant, seed in never:
        other = game_positions(variant, seed, plies=30, every=30)[0]
        seen, result = seen_of(other, never_depth or depth, **{switch: 1})
        assert seen == []
        assert result.best in other.legal_moves()


def seen_kind(kind: str, describe: Callable[[Position, object, int], tuple]) -> Seen:
    """A `seen_of` for `decisions_along` and `assert_gated`: searches `pos` to `depth` and
    lists describe(position, move, remaining) for every decision of `kind` it reports."""

    def seen_of(pos: Position, depth: int, **switches: int) -> tuple[list, SearchResult]:
        seen: list = []

        def note(got, at, move, remaining, search):
            if got == kind:
                seen.append(describe(at, move, remaining))

        return seen, watched(pos, depth, note, **switches)

    return seen_of
