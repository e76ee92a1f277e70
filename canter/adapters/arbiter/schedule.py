"""Which games a run plays, in which order: a fixed list computed from the command line,
so a resumed run (same command) knows which games its output file already holds.

An *encounter* is a group of players that meet (two for Camelot, three for Tri-Camelot).
Each encounter plays *blocks*: one opening, played once per seat arrangement (two seats:
both colours; three seats: the three rotations, or all six orders). Blocks of all
encounters are interleaved, so a run stopped early is still balanced.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import dataclass

from canter.adapters.arbiter.openings import Opening, opening_order


@dataclass(frozen=True)
class Job:
    number: int  # 1-based game number (the Round tag)
    encounter: int
    block: int  # games of one encounter with the same block index share the opening
    players: tuple[int, ...]  # player index per seat
    opening: int


def arrangements(group: tuple[int, ...], all_orders: bool = False) -> list[tuple[int, ...]]:
    """Seat arrangements of a group: (a, b) -> (a, b), (b, a); (a, b, c) -> its rotations
    (or all permutations)."""
    if all_orders:
        return list(itertools.permutations(group))
    return [group[i:] + group[:i] for i in range(len(group))]


def round_robin(nplayers: int, seats: int) -> list[tuple[int, ...]]:
    return list(itertools.combinations(range(nplayers), seats))


def gauntlet(nplayers: int, seats: int, seeds: int = 1) -> list[tuple[int, ...]]:
    """Each of the first `seeds` players meets every group of seats-1 of the others."""
    # Each seed needs seats-1 others to meet: at most nplayers - (seats-1) seeds.
    most = nplayers - (seats - 1)
    if not 1 <= seeds <= most:
        raise ValueError(f"a gauntlet of {nplayers} engines for {seats} seats needs 1 to "
                         f"{most} seeds" if most >= 1 else
                         f"a gauntlet for {seats} seats needs at least {seats} engines")
    others = range(seeds, nplayers)
    return [(s, *rest) for s in range(seeds) for rest in itertools.combinations(others, seats - 1)]


def build_schedule(
    encounters: list[tuple[int, ...]],
    games_per_encounter: int,
    openings: int,
    order: str = "sequential",
    seed: int = 0,
    all_orders: bool = False,
) -> list[Job]:
    if not encounters:
        raise ValueError("no encounters (too few engines for this variant?)")
    if games_per_encounter < 1:
        raise ValueError("at least one game per encounter")
    per_block = len(arrangements(encounters[0], all_orders))
    blocks = -(-games_per_encounter // per_block)
    picks = opening_order(openings, blocks, order, seed)
    jobs: list[Job] = []
    for block in range(blocks):
        for e, group in enumerate(encounters):
            for i, seats in enumerate(arrangements(group, all_orders)):
                if block * per_block + i >= games_per_encounter:
                    break
                jobs.append(Job(len(jobs) + 1, e, block, seats, picks[block]))
    return jobs


def game_key(identity: object, job: Job, opening: Opening) -> str:
    """What identifies game `job.number` of a run, hashed (the `Schedule` tag of its
    record): the run's identity (variant, engines with their commands, options and limits,
    the opening order and, for a random order, the seed), the game's players per seat, its
    encounter and block, and its opening. The number of games is left out, so a run with
    `--games` raised extends the same schedule; any other change gives new keys."""
    data = [identity, job.number, job.encounter, job.block, list(job.players),
            opening.position, list(opening.moves)]
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
