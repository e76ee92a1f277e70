"""The tactics tools of bench/: the suite format, the solver and the finder, on positions
whose one winning move is known by hand."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

from tactics import read_suite, same_move  # noqa: E402

# White's Man on F8 takes Black's last piece on F9 (F8xF10): the only winning move.
LAST_CAPTURE = "camelot 2/8/10/12/12/12/12/5b6/5w6/12/12/12/4w7/10/8/2 w 0,0 - - 0 30"


def test_the_suite_format(tmp_path):
    suite = tmp_path / "s.txt"
    suite.write_text(f"# a comment\n\n{LAST_CAPTURE} bm f8xf10 ; gap 99999 ; source x\n",
                     encoding="utf-8")
    assert read_suite(suite) == [(LAST_CAPTURE, "f8xf10")]
    assert same_move(LAST_CAPTURE, "F8xF10", "f8f10")
    assert not same_move(LAST_CAPTURE, "F8xF10", "E4-E5")
    suite.write_text(f"{LAST_CAPTURE} F8xF10\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(BENCH / "tactics.py"), str(suite)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "expected '<position string> bm <move>'" in done.stderr


def test_the_solver_counts_a_solved_and_a_missed_position(tmp_path):
    suite = tmp_path / "tactics-test.txt"
    # the second line names a legal but losing move as "best": it must count as missed
    suite.write_text(f"{LAST_CAPTURE} bm F8xF10\n{LAST_CAPTURE} bm E4-E5\n", encoding="utf-8")
    done = subprocess.run([sys.executable, str(BENCH / "tactics.py"), str(suite),
                           "--st", "0.2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "1 of 2 solved (50.0 %)" in done.stdout
    assert "missed: " in done.stdout and "bm E4-E5, played F8xF10" in done.stdout


# Cam, Black to move; after any Black move White's Man on D12 enters Black's castle D13 and
# wins at once, while every other White move wins nothing.
ENTRY_NEXT = "cam 1/1w1/5/7/7/7/7/7/w5b/7/5/3/1 b 0,0 - - 0 0"


def test_the_finder_keeps_only_a_move_the_alternatives_fall_short_of(tmp_path):
    games = tmp_path / "g.pgn"
    games.write_text(f'[Variant "Cam"]\n[SetUp "1"]\n[Position "{ENTRY_NEXT}"]\n\n'
                     "1... G5-G6 *\n", encoding="utf-8")
    out = tmp_path / "found.txt"
    args = [sys.executable, str(BENCH / "find_tactics.py"), str(games), "--st", "0.2",
            "--verify", "0.3", "--skip", "0", "--out", str(out)]
    # Every White move wins by force (Black cannot stop the entry): not a tactic.
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert not out.exists()
    # Asked for any gap at all, the entry (a win in one, against a win in two) is kept.
    args += ["--gap", "1", "--gain", "1"]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    found = read_suite(out)
    assert len(found) == 1 and found[0][1] == "D12-D13"
    assert found[0][0].startswith("cam ") and " w " in found[0][0]
    again = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and read_suite(out) == found


def _camelot_game(plies: int) -> list[str]:
    """The first `plies` moves of a game where each side plays its last legal move (in
    the rules library's order; the first shuffles a Man to a third repetition): a legal,
    repeatable record with a game going on after every move."""
    from canter.engine import Position, format_move

    pos = Position.start("camelot")
    moves = []
    for _ in range(plies):
        move = pos.legal_moves()[-1]
        moves.append(format_move(pos.variant, move))
        pos.push(move)
    return moves


def _record(moves: list[str], result: str = "*") -> str:
    pairs = [f"{n // 2 + 1}. {' '.join(moves[n:n + 2])}" for n in range(0, len(moves), 2)]
    return f'[Variant "Camelot"]\n\n{" ".join(pairs)} {result}\n\n'


def test_every_nth_position_starts_at_another_ply_in_each_game(tmp_path):
    from find_tactics import positions

    one = tmp_path / "one.pgn"
    one.write_text(_record(_camelot_game(10)), encoding="utf-8")
    # skip 2, every 3: game 1 takes plies 2, 5, 8
    assert [s.split(":")[-1] for _, s in positions([str(one)], 2, 3)] == ["2", "5", "8"]
    two = tmp_path / "two.pgn"
    two.write_text(_record(_camelot_game(10)) + _record(_camelot_game(11)), encoding="utf-8")
    # game 2 starts one ply later (3, 6, 9) and adds ply 11 only where game 1 ended
    sources = [s for _, s in positions([str(two)], 2, 3)]
    assert sources == ["two.pgn:1:2", "two.pgn:1:5", "two.pgn:1:8", "two.pgn:2:3",
                       "two.pgn:2:6", "two.pgn:2:9"]
    # every position: the second game repeats the first's ten and adds its eleventh only
    sources = [s for _, s in positions([str(two)], 2, 1)]
    assert len(sources) == 10 and sources[-1] == "two.pgn:2:11"


def test_a_record_cut_off_by_a_running_match_loses_only_its_last_game(tmp_path):
    from find_tactics import finished_games

    moves = _camelot_game(6)
    games = tmp_path / "g.pgn"
    whole = _record(moves, "1-0") + _record(moves[:4], "0-1")
    games.write_text(whole + '[Variant "Camelot"]\n\n1. ' + moves[0][:-1], encoding="utf-8")
    assert [len(g.moves) for g in finished_games(str(games))] == [6, 4]
    games.write_text(whole + '[Variant "Camelot"]\n\n1. ' + moves[0], encoding="utf-8")
    assert [len(g.moves) for g in finished_games(str(games))] == [6, 4]
    games.write_text(whole, encoding="utf-8")
    assert [len(g.moves) for g in finished_games(str(games))] == [6, 4]


def test_the_screen_passes_half_the_margins_or_a_win_the_second_move_lacks():
    from find_tactics import WIN, Reading

    # gain 150 and gap 150 asked: the screen lets through 75 of each
    assert Reading("a", 80, 0, 0, 3).promising(150, 150)
    assert not Reading("a", 80, 0, 0, 3).holds(150, 150)
    assert not Reading("a", 70, 0, 0, 3).promising(150, 150)  # gap 70
    assert not Reading("a", 80, 10, -50, 3).promising(150, 150)  # gap 70, gain 130
    # the gain is counted from the lower of the eval and the second move's score
    assert Reading("a", 200, 40, 0, 3).holds(200, 150)
    assert not Reading("a", 200, 40, 60, 3).holds(200, 150)  # gain 160
    assert Reading("a", WIN - 3, 50, 40, 3).promising(150, 150)
    # both moves win: a few points apart, never a tactic, not worth a long search
    assert not Reading("a", WIN - 1, WIN - 2, 40, 3).promising(150, 150)


def test_the_screen_the_depth_field_and_resuming_from_the_seen_file(tmp_path):
    games = tmp_path / "g.pgn"
    games.write_text(f'[Variant "Cam"]\n[SetUp "1"]\n[Position "{ENTRY_NEXT}"]\n\n'
                     "1... G5-G6 *\n", encoding="utf-8")
    out, seen = tmp_path / "found.txt", tmp_path / "seen.txt"
    args = [sys.executable, str(BENCH / "find_tactics.py"), str(games), "--screen", "0.1",
            "--st", "0.2", "--verify", "0.3", "--skip", "0", "--out", str(out),
            "--seen", str(seen)]
    # every White move wins: the screen already sees a shared win and stops there
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert not out.exists() and "; screened out ; source g.pgn:1:1" in seen.read_text()
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert "0 positions examined" in done.stderr
    seen.unlink()
    done = subprocess.run(args + ["--gap", "1", "--gain", "1"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    line = out.read_text().strip()
    assert " bm D12-D13 ; gap 1 ; " in line and line.endswith("; source g.pgn:1:1")
    assert int(line.split("; depth ")[1].split()[0]) >= 1
    assert "; tactic D12-D13 ;" in seen.read_text()
    assert "1 passed the screen, 1 candidates, 1 kept" in done.stderr


def test_max_positions_sizes_a_run_and_the_next_run_goes_on(tmp_path):
    games = tmp_path / "g.pgn"
    games.write_text(_record(_camelot_game(5)), encoding="utf-8")
    out, seen = tmp_path / "found.txt", tmp_path / "seen.txt"
    args = [sys.executable, str(BENCH / "find_tactics.py"), str(games), "--screen", "0.05",
            "--st", "0.05", "--verify", "0.05", "--skip", "1", "--every", "2",
            "--max-positions", "2", "--out", str(out), "--seen", str(seen)]
    # skip 1, every 2: plies 1, 3, 5, two in each run
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "2 positions examined" in done.stderr
    first = [line.rsplit(":", 1)[1] for line in seen.read_text().splitlines()]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert "1 positions examined" in done.stderr
    later = [line.rsplit(":", 1)[1] for line in seen.read_text().splitlines()]
    assert first == ["1", "3"] and later == ["1", "3", "5"]


# Eight legal plies from the start, no capture among them (late_losses' test game).
DROP_MOVES = "D6-F8 H11-F9 C6-E8-G8 J11-H11 H6-H8 E11-G9 J6-H6 C11-E11".split()


def _scored(result: str, black_scores: list[str]):
    """A game of DROP_MOVES won by White, Black's moves (indices 1, 3, 5, 7) scored."""
    from canter.adapters.records.format import GameRecord

    record = GameRecord.new("camelot", ["w", "b"], round="1")
    scores = iter(black_scores)
    for i, move in enumerate(DROP_MOVES):
        record.add_move(move, score=next(scores) if i % 2 else "+0.10", depth=3)
    record.set_result(result)
    return record


def test_a_sudden_fall_of_the_losers_score_spans_its_last_hopeful_move_to_its_low():
    from find_tactics import Drops, drop_stretches

    movers = [0, 1] * 4
    # Black (the loser) at +0.50 +0.20 -0.30 -3.00: its fall to -2.00 or below ends at
    # index 7 and its last score of 0 or above within three of its moves is index 3.
    fall = _scored("1-0", ["+0.50", "+0.20", "-0.30", "-3.00"])
    assert drop_stretches(fall, movers, Drops()) == [range(3, 8)]
    assert drop_stretches(fall, movers, Drops(high=-0.5)) == [range(5, 8)]
    assert drop_stretches(fall, movers, Drops(within=1)) == []  # -0.30 was not hopeful
    assert drop_stretches(fall, movers, Drops(low=-4.0)) == []  # never that low
    # A fall, a recovery and a second fall are two stretches; staying low is not a new one.
    twice = _scored("1-0", ["+0.50", "-2.50", "+0.10", "#-3"])
    assert drop_stretches(twice, movers, Drops()) == [range(1, 4), range(5, 8)]
    stays = _scored("1-0", ["+0.50", "-2.50", "-2.60", "-3.00"])
    assert drop_stretches(stays, movers, Drops()) == [range(1, 4)]
    # Only the loser's scores count: when Black wins, White's steady +0.10 shows no fall
    # whatever Black's scores do. A drawn game has no loser.
    assert drop_stretches(_scored("0-1", ["+0.50", "+0.20", "-0.30", "-3.00"]), movers,
                          Drops()) == []
    assert drop_stretches(_scored("1/2-1/2", ["+0.5", "-3.0", "+0.5", "-3.0"]), movers,
                          Drops()) == []


def test_drops_sample_the_positions_before_each_move_of_the_fall(tmp_path):
    from find_tactics import Drops, sample

    from canter.adapters.records.format import write_games
    from canter.engine import Position, parse_move

    path = tmp_path / "games.pgn"
    with open(path, "w", encoding="utf-8") as out:
        write_games([_scored("1-0", ["+0.50", "+0.20", "-0.30", "-3.00"]),
                     _scored("1/2-1/2", ["+0.5", "-3.0", "+0.5", "-3.0"])], out)
    found = sample([str(path)], skip=6, every=1, drops=Drops())
    # the positions after 3, 4, 5, 6 and 7 plies of the first game (--skip does not apply)
    assert [s for _, s in found] == [f"games.pgn:1:{n}" for n in range(3, 8)]
    pos = Position.start("camelot")
    for move in DROP_MOVES[:3]:
        pos.push(parse_move(pos, move))
    assert found[0][0] == pos.to_string() and " b " in found[0][0]


def test_the_solver_sets_engine_options_and_names_a_bad_one(tmp_path):
    suite = tmp_path / "tactics-test.txt"
    suite.write_text(f"{LAST_CAPTURE} bm F8xF10\n", encoding="utf-8")
    base = [sys.executable, str(BENCH / "tactics.py"), str(suite), "--st", "0.2"]
    done = subprocess.run(base + ["--option", "Search Switches=capext=1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "1 of 1 solved" in done.stdout
    done = subprocess.run(base + ["--option", "Bogus Option=3"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 1 and "--option:" in done.stderr and "Bogus" in done.stderr
    done = subprocess.run(base + ["--option", "no value"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "NAME=VALUE" in done.stderr


def test_every_shipped_suite_line_is_a_position_and_a_legal_move():
    from canter.engine import Position, parse_move

    suites = sorted(BENCH.glob("tactics-*.txt"))
    assert len(suites) >= 3
    for path in suites:
        lines = read_suite(path)
        assert lines, path
        for position, best in lines:
            pos = Position.from_string(position)
            assert pos.outcome() is None
            assert parse_move(pos, best) in pos.legal_moves(), (path.name, position, best)


def _after_entry_next() -> str:
    from canter.engine import Position, parse_move

    pos = Position.from_string(ENTRY_NEXT)
    pos.push(parse_move(pos, "G5-G6"))
    return pos.to_string()


def test_the_recheck_sample_is_the_same_draw_each_run():
    from recheck_tactics import chosen

    assert chosen(5, 0, 1) == [0, 1, 2, 3, 4] and chosen(5, 9, 1) == [0, 1, 2, 3, 4]
    drawn = chosen(100, 10, 7)
    assert drawn == chosen(100, 10, 7) and drawn == sorted(set(drawn)) and len(drawn) == 10
    assert drawn != chosen(100, 10, 8)


def test_the_recheck_keeps_the_move_that_stays_best_and_checks_a_position_once(tmp_path):
    position = _after_entry_next()
    suite = tmp_path / "suite.txt"
    # White enters Black's castle at once with D12-D13; G6-G7 also wins, but later.
    suite.write_text(f"# two lines\n{position} bm D12-D13 ; gap 1 ; source a.pgn:1:2\n"
                     f"{position} bm G6-G7 ; source b.pgn:4:9\n",
                     encoding="utf-8")
    out, seen = tmp_path / "held.txt", tmp_path / "checked.seen"
    args = [sys.executable, str(BENCH / "recheck_tactics.py"), str(suite), "--st", "0.2",
            "--gain", "1", "--gap", "1", "--out", str(out), "--seen", str(seen)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "suite.txt: 1 of 1 hold at 0.2 s (100.0 %)" in done.stdout, done.stdout
    kept = out.read_text(encoding="utf-8").splitlines()
    assert len(kept) == 1 and kept[0].startswith(f"{position} bm D12-D13 ; gap ")
    assert kept[0].endswith(" ; checked 0.2 s ; source a.pgn:1:2")
    assert read_suite(out) == [(position, "D12-D13")]
    # The second line is the same position: checked once, and the run resumes past it.
    again = subprocess.run(args, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and "0 of 0 hold" in again.stdout
    assert len(out.read_text(encoding="utf-8").splitlines()) == 1


def test_the_recheck_verdicts_other_move_and_margins_fell(tmp_path):
    position = _after_entry_next()
    suite = tmp_path / "suite.txt"
    suite.write_text(f"{position} bm G6-G7 ; source b.pgn:4:9\n", encoding="utf-8")
    out, seen = tmp_path / "held.txt", tmp_path / "checked.seen"
    base = [sys.executable, str(BENCH / "recheck_tactics.py"), "--st", "0.2",
            "--out", str(out), "--seen", str(seen)]
    done = subprocess.run(base + [str(suite)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "0 of 1 hold" in done.stdout and "other move 1" in done.stdout
    assert seen.read_text(encoding="utf-8") == (
        f"{position} ; other move D12-D13 ; source b.pgn:4:9\n")
    assert not out.exists()
    # The right move, but a win in one beats a win in two by a point, not by a Man.
    seen.unlink()
    suite.write_text(f"{position} bm D12-D13\n", encoding="utf-8")
    done = subprocess.run(base + [str(suite)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "margins fell 1" in done.stdout and "margins fell (gap 1, gain" in done.stderr
    assert not out.exists()
    suite.write_text(f"{position} D12-D13\n", encoding="utf-8")
    bad = subprocess.run(base + [str(suite)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1 and "expected '<position string> bm <move>'" in bad.stderr


def test_the_shipped_suites_are_the_lines_a_60_s_search_kept():
    from tactics import suite_entries

    def held(seen_file: str) -> set[str]:
        seen = [line.split(" ; ") for line in (BENCH / "tactics-checked" / seen_file).read_text(
            encoding="utf-8").splitlines()]
        verdicts = {fields[0]: fields[1] for fields in seen}
        assert len(verdicts) == len(seen)  # each position checked once
        return {position for position, verdict in verdicts.items() if verdict == "holds"}

    def field(line: str, name: str) -> int:
        return next(int(f.split()[1]) for f in line.split(" ; ") if f.startswith(name + " "))

    # the lines from decided games were checked at their own margins (a defence holds
    # there too); the suite takes those that hold at its margins, a Man each
    drops = (BENCH / "tactics-checked" / "camelot-drops-60s.txt").read_text(
        encoding="utf-8").splitlines()
    assert {line.split(" bm ")[0] for line in drops} == held("camelot-drops-60s.seen")
    wins = {line.split(" bm ")[0] for line in drops
            if min(field(line, name) for name in ("gap", "gain", "score")) >= 100}
    assert 0 < len(wins) < len(drops)
    for name, expected in (("camelot", held("camelot-60s.seen") | wins),
                           ("tri-camelot", held("tri-camelot-60s.seen"))):
        suite = suite_entries(BENCH / f"tactics-{name}.txt")
        assert {p for p, _, _ in suite} == expected and len(suite) == len(expected)
        text = (BENCH / f"tactics-{name}.txt").read_text(encoding="utf-8")
        assert text.count(" ; checked 60 s ; source ") == len(suite)


def test_the_recheck_parts_share_the_draw_and_a_repeated_position_goes_to_one():
    from recheck_tactics import part, to_check

    lines = [(f"p{i}", "A1-A2", "") for i in range(7)] + [("p2", "B1-B2", "")]
    ones = to_check(lines, 0, 1, (1, 2), set())
    twos = to_check(lines, 0, 1, (2, 2), set())
    assert [p for p, _, _ in ones] == ["p0", "p2", "p4", "p6"]
    assert [p for p, _, _ in twos] == ["p1", "p3", "p5"]  # the second p2 is never checked
    assert to_check(lines, 0, 1, (1, 1), {"p0", "p5"}) == [
        lines[i] for i in (1, 2, 3, 4, 6)]
    assert part("2/3") == (2, 3)
    for bad in ("3/2", "0/2", "1", "a/b"):
        with pytest.raises(argparse.ArgumentTypeError):
            part(bad)
