"""What a run prints: a progress line per finished game with the running score, the final
table, and the JSON summary. Pure formatting over a Tally; no I/O."""

from __future__ import annotations

import math
from typing import Any

from canter.adapters.arbiter.results import GameEntry, Tally
from canter.adapters.arbiter.stats import (
    EloEstimate,
    SprtResult,
    elo_from_score,
    pentanomial_elo,
    scores_elo,
    sprt,
    two_seat_stats,
)


def elo_text(x: float) -> str:
    if math.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return f"{x + 0.0:+.1f}" if round(x, 1) != 0 else "+0.0"


def margin_text(est: EloEstimate) -> str:
    if math.isinf(est.margin) or math.isnan(est.margin):
        return "inf"
    return f"{est.margin:.1f}"


def sprt_state(tally: Tally, params: dict[str, float] | None) -> SprtResult | None:
    """SPRT over the pentanomial counts of players 0 and 1 (per-game W/D/L while no pair
    is complete); in multi-seat games over player 0's pairwise score in each game against
    the others in it. None if not asked for or no game yet."""
    if not params or tally.games == 0:
        return None
    args = (params["elo0"], params["elo1"], params["alpha"], params["beta"])
    if tally.team_of:
        # Two engines, a team each (`--teams`): engine 0's team against engine 1's.
        penta = tally.team_pentanomial(0, 1)
        if sum(penta):
            return sprt(*args, penta=penta)
        w, d, lo = tally.team_scores().get(((0,), (1,)), [0, 0, 0])
        return sprt(*args, wdl=(w, d, lo)) if w + d + lo else None
    if tally.multi_seat:
        scores = tally.pairwise_scores(0)
        return sprt(*args, scores=scores) if scores else None
    penta = tally.pentanomial(0, 1)
    if sum(penta):
        return sprt(*args, penta=penta)
    w, d, lo = tally.score(0, 1)
    if w + d + lo == 0:
        return None
    return sprt(*args, wdl=(w, d, lo))


def progress_line(tally: Tally, total: int, entry: GameEntry, names: list[str],
                  nseats: int, sprt_params: dict[str, float] | None = None,
                  match: bool = True) -> str:
    job = entry.job
    who = " vs ".join(names[p] for p in job.players)
    if entry.sides is not None:
        # Seats in turn order, then the teams: "a vs b vs c vs d (a+c vs b+d)".
        who += f" ({' vs '.join(team_name(side, names) for side in entry.sides)})"
    result = "-".join(_points(p) for p in entry.points)
    head = f"[{tally.games:>{len(str(total))}}/{total}] game {job.number} {who}: {result}"
    if entry.termination != "normal":
        head += f" ({entry.termination}: {entry.reason})"
    elif entry.reason:
        head += f" ({entry.reason})"
    return f"{head} | {running_score(tally, names, nseats, sprt_params, match)}"


def tested_scores(tally: Tally, names: list[str], nseats: int, match: bool) -> list[float]:
    """The first engine's pairwise score in each game of a multi-seat match (one engine a
    seat: the first is the one tested); empty otherwise, a tournament included."""
    if match and tally.multi_seat and len(names) == nseats:
        return tally.pairwise_scores(0)
    return []


def running_score(tally: Tally, names: list[str], nseats: int,
                  sprt_params: dict[str, float] | None = None, match: bool = True) -> str:
    """The score so far: W-L-D, score and Elo of a two-engine match, else points (and, in
    a multi-seat match, the first engine's pairwise score); then the SPRT's LLR, if one
    runs, so that a long test shows how near it is to a decision as it goes."""
    if tally.team_of:
        parts = []
        for i, name in enumerate(names):
            parts.append(f"{name} {tally.team_points(i)[1]:g}")
        running = "team points " + ", ".join(parts)
    elif nseats == 2 and len(names) == 2:
        w, d, lo = tally.score(0, 1)
        n = w + d + lo
        score = (w + 0.5 * d) / n if n else 0.5
        running = f"{names[0]} {w}-{lo}-{d} [{score:.3f}]"
        if 0 < score < 1:
            running += f" Elo {elo_text(elo_from_score(score))}"
    else:
        stats = tally.multi() if nseats == 3 else None
        parts = []
        for i, name in enumerate(names):
            if stats is not None:
                pts = stats.points.get(i, 0.0)
            else:
                w, d, _ = tally.overall(i)
                pts = w + 0.5 * d
            parts.append(f"{name} {pts:g}")
        running = "points " + ", ".join(parts)
        scores = tested_scores(tally, names, nseats, match)
        if scores:
            mean = sum(scores) / len(scores)
            running += f"; pairwise {names[0]} {mean:.3f}"
            if 0 < mean < 1:
                running += f" Elo {elo_text(elo_from_score(mean))}"
    state = sprt_state(tally, sprt_params)
    if state is not None:
        running += f", LLR {state.llr:+.2f} ({state.lower:+.2f}, {state.upper:+.2f})"
    return running


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def progress_bar(tally: Tally, total: int, names: list[str], nseats: int, elapsed: float,
                 played: int, width: int = 80,
                 sprt_params: dict[str, float] | None = None, match: bool = True) -> str:
    """The redrawn status line of a terminal: a bar, games done of total, the running
    score, the time since the start and the time left, estimated from the `played` games
    this run finished in `elapsed` seconds (games read from the file for a resume took no
    time here). At most `width` - 1 characters."""
    done = tally.games
    cells = 16
    filled = cells * done // total if total else cells
    bar = "#" * filled + "-" * (cells - filled)
    left = "?"
    if played and done < total:
        left = "~" + _clock(elapsed / played * (total - done))
    elif done >= total:
        left = "0:00"
    head = f"[{bar}] {done}/{total} | "
    tail = f" | {_clock(elapsed)}, {left} left"
    score = running_score(tally, names, nseats, sprt_params, match)
    room = width - 1 - len(head) - len(tail)
    if len(score) > room >= 10:
        # The score is what gives way on a narrow terminal: the time left stays in sight.
        score = score[: room - 3] + "..."
    line = head + score + tail
    if len(line) >= width:
        line = line[: max(0, width - 4)] + "..."
    return line


def _points(p: object) -> str:
    return str(p)


def final_table(tally: Tally, names: list[str], nseats: int, total: int,
                sprt_params: dict[str, float] | None = None, match: bool = True) -> str:
    lines = [f"Games played: {tally.games} of {total}"]
    if tally.games == 0:
        return lines[0]
    if nseats == 2 and len(names) == 2:
        lines += _match_two(tally, names, sprt_params)
    elif nseats == 2:
        lines += _tournament_two(tally, names)
    elif tally.team_of:
        lines += _teams(tally, names)
        penta = tally.team_pentanomial(0, 1) if len(names) == 2 else (0,)
        if sum(penta):
            est = pentanomial_elo(penta)
            lines.append(
                f"Pentanomial of {names[0]}'s team [LL, LD, DD+WL, WD, WW] over {sum(penta)} "
                f"pairs: [{', '.join(map(str, penta))}], Elo {elo_text(est.elo)} +/- "
                f"{margin_text(est)}")
        lines += _sprt_lines(tally, sprt_params)
    else:
        lines += _three(tally, names)
        lines += _pairwise_elo(tested_scores(tally, names, nseats, match), names)
        lines += _sprt_lines(tally, sprt_params)
    terms = tally.terminations()
    lines.append("Terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(terms.items())))
    faults = [e for e in tally.entries.values() if e.termination not in
              ("normal", "adjudication", "max plies")]
    for e in sorted(faults, key=lambda e: e.job.number)[:20]:
        lines.append(f"  game {e.job.number}: {e.termination}: {e.reason}")
    if len(faults) > 20:
        lines.append(f"  ... and {len(faults) - 20} more")
    return "\n".join(lines)


def _match_two(tally: Tally, names: list[str], sprt_params: dict[str, float] | None) -> list[str]:
    a, b = names
    st = tally.two_seat(0, 1)
    assert st is not None
    lines = [
        f"Score of {a} vs {b}: {st.wins} - {st.losses} - {st.draws} (W-L-D) [{st.score:.3f}]",
        f"Elo difference: {elo_text(st.elo.elo)} +/- {margin_text(st.elo)} (95 %: "
        f"{elo_text(st.elo.low)} .. {elo_text(st.elo.high)}), LOS {100 * st.los:.1f} %, "
        f"draw ratio {100 * st.draw_ratio:.1f} %",
    ]
    penta = tally.pentanomial(0, 1)
    if sum(penta):
        est = pentanomial_elo(penta)
        lines.append(
            f"Pentanomial [LL, LD, DD+WL, WD, WW] over {sum(penta)} pairs: "
            f"[{', '.join(map(str, penta))}], Elo {elo_text(est.elo)} +/- {margin_text(est)}"
        )
    lines += _sprt_lines(tally, sprt_params)
    return lines


def _sprt_lines(tally: Tally, sprt_params: dict[str, float] | None) -> list[str]:
    state = sprt_state(tally, sprt_params)
    if state is None or sprt_params is None:
        return []
    verdict = {"H0": "H0 accepted", "H1": "H1 accepted"}.get(state.decision or "", "continue")
    return [f"SPRT (elo0 {sprt_params['elo0']:g}, elo1 {sprt_params['elo1']:g}, alpha "
            f"{sprt_params['alpha']:g}, beta {sprt_params['beta']:g}): LLR {state.llr:.2f} "
            f"({state.lower:.2f}, {state.upper:.2f}) - {verdict}"]


def _tournament_two(tally: Tally, names: list[str]) -> list[str]:
    rows = []
    for i, name in enumerate(names):
        w, d, lo = tally.overall(i)
        n = w + d + lo
        if n == 0:
            rows.append((0.0, name, 0, w, d, lo, None))
            continue
        rows.append(((w + 0.5 * d) / n, name, n, w, d, lo, two_seat_stats(w, d, lo)))
    rows.sort(key=lambda r: -r[0])
    width = max(len(n) for n in names)
    out = [f"{'Rank':>4} {'Name':<{width}} {'Elo':>7} {'+/-':>6} {'Games':>5} "
           f"{'W':>4} {'D':>4} {'L':>4} {'Score':>6} {'Draw':>6}"]
    for rank, (score, name, n, w, d, lo, st) in enumerate(rows, start=1):
        elo = elo_text(st.elo.elo) if st else "-"
        margin = margin_text(st.elo) if st else "-"
        draw = f"{100 * d / n:.1f}%" if n else "-"
        out.append(f"{rank:>4} {name:<{width}} {elo:>7} {margin:>6} {n:>5} {w:>4} {d:>4} "
                   f"{lo:>4} {score:>6.3f} {draw:>6}")
    out.append("Pairwise scores (row's W-L-D against column):")
    out.append(" " * (width + 1) + " ".join(f"{n:>{max(9, len(n))}}" for n in names))
    for i, name in enumerate(names):
        cells = []
        for j, other in enumerate(names):
            text = "-" if i == j else "{}-{}-{}".format(*_wld(tally.score(i, j)))
            cells.append(f"{text:>{max(9, len(other))}}")
        out.append(f"{name:<{width}} " + " ".join(cells))
    return out


def _wld(wdl: tuple[int, int, int]) -> tuple[int, int, int]:
    w, d, lo = wdl
    return w, lo, d


def team_name(side: tuple[int, ...], names: list[str]) -> str:
    """An engine playing both seats of a team is the team; two engines are `a+b`."""
    return "+".join(names[p] for p in side)


def _teams(tally: Tally, names: list[str]) -> list[str]:
    """Team games: each pairing of teams as a two-sided match (W-L-D, score, Elo of the
    first team), then each engine's points, a team's result counting for both its engines."""
    out = ["Teams (W-L-D of the first team against the second):"]
    for (a, b), (w, d, lo) in sorted(tally.team_scores().items()):
        st = two_seat_stats(w, d, lo)
        out.append(f"  {team_name(a, names)} vs {team_name(b, names)}: {w} - {lo} - {d} "
                   f"[{st.score:.3f}] Elo {elo_text(st.elo.elo)} +/- {margin_text(st.elo)}, "
                   f"{st.games} games")
    width = max(len(n) for n in names)
    out.append(f"{'Rank':>4} {'Name':<{width}} {'Games':>5} {'Points':>7} {'Score':>6}")
    rows = sorted(range(len(names)), key=lambda i: -tally.team_points(i)[1])
    for rank, i in enumerate(rows, start=1):
        games, points = tally.team_points(i)
        score = f"{points / games:.3f}" if games else "-"
        out.append(f"{rank:>4} {names[i]:<{width}} {games:>5} {points:>7g} {score:>6}")
    return out


def _pairwise_elo(scores: list[float], names: list[str]) -> list[str]:
    """The first engine's Elo from its pairwise score per game (what a multi-seat SPRT
    tests), with a 95 % interval from the spread of those scores."""
    if not scores:
        return []
    est = scores_elo(scores)
    mean = sum(scores) / len(scores)
    return [f"Pairwise score of {names[0]} against the others: {mean:.3f} over "
            f"{len(scores)} games, Elo {elo_text(est.elo)} +/- {margin_text(est)}"]


def _three(tally: Tally, names: list[str]) -> list[str]:
    stats = tally.multi()
    width = max(len(n) for n in names)
    order = sorted(range(len(names)),
                   key=lambda i: (-stats.points.get(i, 0.0),
                                  stats.average_rank(i) if stats.games.get(i) else 9))
    out = [f"{'Rank':>4} {'Name':<{width}} {'Games':>5} {'Points':>7} {'Avg rank':>8}"]
    for rank, i in enumerate(order, start=1):
        n = stats.games.get(i, 0)
        avg = f"{stats.average_rank(i):.2f}" if n else "-"
        out.append(f"{rank:>4} {names[i]:<{width}} {n:>5} {stats.points.get(i, 0.0):>7g} "
                   f"{avg:>8}")
    out.append("Finished ahead of (row ahead of column, games; = shared a place):")
    out.append(" " * (width + 1) + " ".join(f"{n:>{max(7, len(n))}}" for n in names))
    for i in range(len(names)):
        cells = []
        for j, other in enumerate(names):
            if i == j:
                text = "-"
            else:
                ahead = stats.ahead.get(i, {}).get(j, 0)
                level = stats.level.get(i, {}).get(j, 0)
                text = f"{ahead}" + (f" ={level}" if level else "")
            cells.append(f"{text:>{max(7, len(other))}}")
        out.append(f"{names[i]:<{width}} " + " ".join(cells))
    return out


def summary(tally: Tally, names: list[str], nseats: int, total: int, variant: str,
            sprt_params: dict[str, float] | None, interrupted: bool,
            stopped_by_sprt: bool, match: bool = True,
            error: str | None = None) -> dict[str, Any]:
    """The machine-readable summary (`--json`). `error`: the error that stopped the run
    part-way (the line it exits with), None if none did."""
    data: dict[str, Any] = {
        "variant": variant,
        "seats": nseats,
        "players": names,
        "games_scheduled": total,
        "games_played": tally.games,
        "interrupted": interrupted,
        "stopped_by_sprt": stopped_by_sprt,
        "error": error,
        "terminations": dict(tally.terminations()),
    }
    if tally.team_of:
        teams = []
        for (a, b), (w, d, lo) in sorted(tally.team_scores().items()):
            st = two_seat_stats(w, d, lo)
            item = {"teams": [[names[p] for p in a], [names[p] for p in b]],
                    "wins": w, "draws": d, "losses": lo, "score": st.score,
                    "elo": _num(st.elo.elo), "elo_margin": _num(st.elo.margin), "los": st.los}
            if len(a) == len(b) == 1:  # an engine a team (--teams): pairs of games
                penta = tally.team_pentanomial(a[0], b[0])
                item["pentanomial"] = list(penta)
                if sum(penta):
                    est = pentanomial_elo(penta)
                    item["pentanomial_elo"] = _num(est.elo)
                    item["pentanomial_elo_margin"] = _num(est.margin)
            teams.append(item)
        data["teams"] = teams
        data["standings"] = []
        for i, name in enumerate(names):
            games, points = tally.team_points(i)
            data["standings"].append({"name": name, "games": games, "points": points})
    elif nseats == 2:
        pairs = []
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                st = tally.two_seat(i, j)
                if st is None:
                    continue
                penta = tally.pentanomial(i, j)
                item: dict[str, Any] = {
                    "players": [names[i], names[j]],
                    "wins": st.wins, "draws": st.draws, "losses": st.losses,
                    "score": st.score, "draw_ratio": st.draw_ratio,
                    "elo": _num(st.elo.elo), "elo_low": _num(st.elo.low),
                    "elo_high": _num(st.elo.high), "elo_margin": _num(st.elo.margin),
                    "los": st.los, "pentanomial": list(penta),
                }
                if sum(penta):
                    est = pentanomial_elo(penta)
                    item["pentanomial_elo"] = _num(est.elo)
                    item["pentanomial_elo_margin"] = _num(est.margin)
                pairs.append(item)
        data["pairs"] = pairs
        data["standings"] = []
        for i, name in enumerate(names):
            w, d, lo = tally.overall(i)
            data["standings"].append({"name": name, "wins": w, "draws": d, "losses": lo,
                                      "points": w + 0.5 * d})
    else:
        stats = tally.multi()
        data["standings"] = [
            {"name": name, "games": stats.games.get(i, 0), "points": stats.points.get(i, 0.0),
             "average_rank": stats.average_rank(i) if stats.games.get(i) else None}
            for i, name in enumerate(names)
        ]
        data["ahead"] = {names[i]: {names[j]: stats.ahead.get(i, {}).get(j, 0)
                                    for j in range(len(names)) if j != i}
                         for i in range(len(names))}
        data["level"] = {names[i]: {names[j]: stats.level.get(i, {}).get(j, 0)
                                    for j in range(len(names)) if j != i}
                         for i in range(len(names))}
    state = sprt_state(tally, sprt_params)
    if state is not None and sprt_params is not None:
        data["sprt"] = {**sprt_params, "llr": state.llr, "lower": state.lower,
                        "upper": state.upper, "decision": state.decision}
    scores = tested_scores(tally, names, nseats, match)
    if scores:
        est = scores_elo(scores)
        data["pairwise_score"] = {"player": names[0], "games": len(scores),
                                  "score": sum(scores) / len(scores), "elo": _num(est.elo),
                                  "elo_low": _num(est.low), "elo_high": _num(est.high),
                                  "elo_margin": _num(est.margin)}
    data["games"] = [
        {"round": e.job.number, "players": [names[p] for p in e.job.players],
         "result": "-".join(str(p) for p in e.points), "termination": e.termination,
         "reason": e.reason, "plies": e.plies, "opening": e.job.opening}
        for _, e in sorted(tally.entries.items())
    ]
    return _no_negative_zero(data)


def _num(x: float) -> float | None:
    """JSON has no infinity: an unbounded figure is null."""
    return None if math.isinf(x) or math.isnan(x) else x + 0.0


def _no_negative_zero(value: Any) -> Any:
    """An even score gives Elo -0.0 (and LLR, bounds can too); readers of the JSON should
    see 0.0. Adding +0.0 turns -0.0 into 0.0 and leaves every other float alone."""
    if isinstance(value, float):
        return value + 0.0
    if isinstance(value, dict):
        return {k: _no_negative_zero(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_no_negative_zero(v) for v in value]
    return value
