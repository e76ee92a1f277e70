"""Tuning the evaluation from games (Texel's method): the evaluation as a linear form, the
new terms on hand-built positions, the data generator's labels, the tuner on data whose
answer is known, and the EvalFile option that plays tuned weights."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from builders import setup

from canter.engine import Position
from canter.engine.rules.movegen import must_capture
from canter.engine.search.evaluate import (
    DEFAULT_WEIGHTS,
    TERM_NAMES,
    Evaluator,
    Weights,
    linear_score,
    term_weights,
    weight_changes,
    weights_from_terms,
)
from canter.protocol.session import ProtocolError, Session

BENCH = Path(__file__).resolve().parent.parent / "bench"
sys.path.insert(0, str(BENCH))

import texel_data  # noqa: E402
import texel_tune  # noqa: E402

# The new terms and the hanging term switched on, with values that keep hanging_loss's
# rounding exact (so the identity below holds to the unit).
ALL_ON = Weights(hanging=100, defended=7, chain=30, race_step=5, cohesion=4, pair_race=30,
                 threat1=50, threat2=20)


def playout_positions(variant: str, games: int, plies: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = Position.start(variant)
        for _ in range(plies):
            if pos.outcome() is not None:
                break
            pos.push(rng.choice(pos.legal_moves()))
            out.append(pos.copy())
    return out


@pytest.mark.parametrize("variant", ["camelot", "chivalry", "cam", "grand-cam"])
def test_the_score_is_the_terms_times_the_weights(variant):
    positions = playout_positions(variant, 4, 120, seed=7)
    if variant == "camelot":
        # Random games hardly bring a piece into the target castle while the game goes on.
        positions.append(setup("camelot", w="F16 D6 E6", b="D11 E11 F11", turn="b"))
        # A leader with two pieces: its edge is cut to a quarter (the pair race is not).
        positions.append(setup("camelot", w="KD6 KE6", b="D11"))
        positions.append(setup("camelot", w="KD6 KE6", b="D11 E11 F11", turn="b"))
    used = [0.0] * len(TERM_NAMES)
    cuts = 0
    for weights in (None, ALL_ON):
        ev = Evaluator(positions[0].variant, weights)
        w = term_weights(ev.w)
        for pos in positions:
            for seat in range(pos.variant.nseats):
                counts, mine, theirs = ev.terms(pos, seat)
                value = linear_score(counts, w, mine, theirs)
                race = counts[-1] * w[-1]  # the pair race, added after the cut
                cut = value != sum(c * x for c, x in zip(counts, w, strict=True))
                cuts += cut
                # _endgame floors the quarter; the sum itself is whole.
                expected = math.floor(value - race) + race if cut else value
                assert expected == ev.relative(pos, seat), pos.to_string()
                used = [u + abs(c) for u, c in zip(used, counts, strict=True)]
    # Every term but the far race buckets appeared, so none is checked vacuously.
    assert sum(used[TERM_NAMES.index("race0"):TERM_NAMES.index("defence")]) > 0
    for name in ("man", "knight", "advance", "defence", "cohesion", "hanging",
                 "tempo", "race_step", "defended", "chain"):
        assert used[TERM_NAMES.index(name)] > 0, name
    # The pair race: two seats only (a team game has none).
    assert (used[TERM_NAMES.index("pair_race")] > 0) == (variant != "grand-cam")
    if variant == "camelot":
        assert used[TERM_NAMES.index("race0")] > 0 and used[TERM_NAMES.index("race1")] > 0
        assert used[TERM_NAMES.index("threat1")] > 0 and used[TERM_NAMES.index("threat2")] > 0
        assert cuts > 0  # the endgame quarter was met too
    if variant == "grand-cam":  # no castle-entry reach in team games
        assert used[TERM_NAMES.index("threat1")] == used[TERM_NAMES.index("threat2")] == 0


@pytest.mark.parametrize("weights", [
    None,
    replace(ALL_ON, threat1=300, threat2=100),
    # An opponent's entry that weighs less than nothing is never subtracted (_threats).
    replace(ALL_ON, threat1=300, threat2=-40),
    # Minus the strongest opponent, not the mean: no floor, so exact.
    replace(ALL_ON, threat1=300, threat2=100, versus_max=1),
    # The neighbours' material and position weighed apart: floored as the mean is.
    replace(ALL_ON, threat1=300, threat2=100, left_material=100, left_position=0,
            right_material=-30, right_position=130),
], ids=["built-in", "threats", "negative-threat2", "versus-max", "neighbour-shares"])
def test_three_seat_terms_are_the_score_to_within_the_floor_of_the_mean(weights):
    positions = playout_positions("tri-camelot", 4, 150, seed=5)
    used = [0.0] * len(TERM_NAMES)
    apart = 0
    ev = Evaluator(positions[0].variant, weights)
    w = term_weights(ev.w)
    for pos in positions:
        for seat in range(3):
            counts, mine, theirs = ev.terms(pos, seat)
            assert not mine and not theirs  # no endgame cut in three seats
            value = linear_score(counts, w, mine, theirs)
            # relative() floors the opponents' mean, the linear form does not (and its
            # shares of a weighted mean, such as 0.8, are not exact in binary).
            assert -1e-9 <= ev.relative(pos, seat) - value < 1, pos.to_string()
            apart += value != ev.relative(pos, seat)
            used = [u + abs(c) for u, c in zip(used, counts, strict=True)]
    if ev.w.versus_max:
        assert apart == 0
    else:
        assert apart > 0  # the floor was met, so the bound above was tested
    for name in ("man", "knight", "advance", "race1", "defence", "cohesion", "hanging",
                 "tempo", "race_step", "defended", "chain", "threat1", "threat2"):
        assert used[TERM_NAMES.index(name)] > 0, name
    assert used[TERM_NAMES.index("pair_race")] == 0  # two seats only


def test_the_castle_entry_reach_is_counted_whatever_its_weight():
    # White F15 steps into the Black castle next move; Black is far from White's.
    pos = setup("camelot", w="F15 D6 E6", b="D11 E11 F11")
    ev = Evaluator(pos.variant)
    assert ev.w.threat1 == ev.w.threat2 == 0
    threat1, threat2 = TERM_NAMES.index("threat1"), TERM_NAMES.index("threat2")
    white, _, _ = ev.terms(pos, 0)
    black, _, _ = ev.terms(pos, 1)
    assert (white[threat1], white[threat2]) == (1, 0)
    assert (black[threat1], black[threat2]) == (-1, 0)
    # Weighed, the count is what the evaluation adds.
    on = Evaluator(pos.variant, replace(ev.w, threat1=70))
    assert on.relative(pos, 0) - ev.relative(pos, 0) == 70


def test_three_seats_count_the_nearest_opponent_s_entry():
    # Tri-Camelot: an opponent one move from entering outweighs another two moves away,
    # so the count is the own reach minus the nearest opponent's.
    pos = Position.start("tri-camelot")
    ev = Evaluator(pos.variant)
    threat1, threat2 = TERM_NAMES.index("threat1"), TERM_NAMES.index("threat2")
    rng = random.Random(2)
    seen = set()
    for _ in range(400):
        if pos.outcome() is not None:
            pos = Position.start("tri-camelot")
        pos.push(rng.choice(pos.legal_moves()))
        allocc = 0
        for bits in pos.occ:
            allocc |= bits
        for seat in range(3):
            counts, _, _ = ev.terms(pos, seat)
            reach = [ev.reach.moves_to_target(pos.occ, s, allocc, pos.kn)
                     if pos.occ[s] else 3 for s in range(3)]
            near = min((reach[s] for s in range(3) if s != seat and pos.occ[s]
                        and s not in pos.eliminated), default=3)
            own = (reach[seat] == 1) - (near == 1), (reach[seat] == 2) - (near == 2)
            assert (counts[threat1], counts[threat2]) == own
            seen.add(own)
    assert len(seen) >= 3  # more than the trivial (0, 0) and one other


def test_the_default_weights_leave_the_new_terms_off():
    assert DEFAULT_WEIGHTS.defended == 0 and DEFAULT_WEIGHTS.chain == 0
    assert weights_from_terms(term_weights(DEFAULT_WEIGHTS)) == DEFAULT_WEIGHTS


def test_defended_pieces_of_a_block_and_at_the_edge():
    # A 3x3 block: the centre and the four edge-middles have a friend on every line; the
    # corners are open along one diagonal. A6-A7 on the edge: the edge closes the row and
    # both diagonals, the friend the file. The lone G11 is open on every line.
    pos = setup("camelot", w="D7 E7 F7 D8 E8 F8 D9 E9 F9 A6 A7 G11", b="H13")
    ev = Evaluator(pos.variant)
    safe = ev.defended(pos.occ[0])
    names = {pos.variant.cell(n) for n in ("E8", "D8", "F8", "E7", "E9", "A6", "A7")}
    assert {c for c in pos.variant.cells if safe >> c & 1} == names


def test_chain_counts_the_longest_jump_the_opponent_threatens():
    # Black F6 jumps F7 to F8 and F9 to F10; F5 keeps White from jumping F6 first.
    pos = setup("camelot", w="F7 F9 A6", b="F6 F5 L11")
    assert not must_capture(pos)
    ev = Evaluator(pos.variant)
    assert ev.chain_loss(pos, 0) == 2
    # The hanging term sees one piece there (F9 has no enemy beside it); the chain, both.
    plain = ev.relative(pos, 0)
    with_chain = Evaluator(pos.variant, replace(ev.w, chain=30)).relative(pos, 0)
    assert plain - with_chain == 60
    # Black to move: it is White who would be threatened, not Black.
    black = setup("camelot", turn="b", w="F7 F9 A6", b="F6 F5 L11")
    assert Evaluator(black.variant).chain_loss(black, 1) == 0


def test_generator_labels_each_position_with_the_result_of_its_side_to_move(tmp_path):
    lines, last = texel_data.play_game("camelot", 3, nodes=150, seed=0, opening=4, book=8)
    assert lines
    assert (lines, last.to_string()) == (
        lambda r: (r[0], r[1].to_string()))(texel_data.play_game("camelot", 3, 150, 0, 4, 8))
    out = last.outcome()
    for line in lines:
        text, label = line.split(" ; result ")
        pos = Position.from_string(text)
        assert pos.outcome() is None and not must_capture(pos)
        if out is None or out.winner is None:
            assert label == "0.5"
        else:
            assert label == ("1" if pos.turn == out.winner else "0")
        assert pos.ply >= 8


def test_generator_appends_and_skips_the_games_it_has(tmp_path):
    path = tmp_path / "data.texel"
    first = texel_data.run("camelot", 2, 100, str(path), quiet=True)
    text = path.read_text()
    assert text.count("# game ") == 2 and first == text.count(" ; result ")
    assert texel_data.run("camelot", 2, 100, str(path), quiet=True) == 0
    assert path.read_text() == text
    texel_data.run("camelot", 3, 100, str(path), quiet=True)
    assert path.read_text().startswith(text)
    assert texel_data.done_games(str(path)) == {0, 1, 2}
    samples = texel_tune.read_samples(str(path))
    assert {g for g, _, _ in samples} <= {0, 1, 2} and len(samples) > first


def test_points_of_a_finished_game():
    # Two White Men in the Black castle: White has won.
    won = setup("camelot", turn="b", w="F16 G16", b="F8 G8")
    assert won.outcome() is not None and won.outcome().winner == 0
    assert texel_data.points(won, 0) == 1.0 and texel_data.points(won, 1) == 0.0
    assert texel_data.points(Position.start("tri-camelot"), 2) == pytest.approx(1 / 3)


def synthetic(true: Weights, k: float) -> texel_tune.Data:
    """Positions of random games labelled with the sigmoid of the score under `true`."""
    positions = playout_positions("camelot", 6, 100, seed=11)
    ev = Evaluator(positions[0].variant)
    data = texel_tune.Data()
    w = term_weights(true)
    for pos in positions:
        counts, mine, theirs = ev.terms(pos, pos.turn)
        e = linear_score(counts, w, mine, theirs)
        data.add(counts, mine, theirs, 1 / (1 + 10 ** (-k * e / 400)))
    return data


def test_fit_k_finds_the_scale_the_data_were_made_with():
    data = synthetic(DEFAULT_WEIGHTS, 0.8)
    k = texel_tune.fit_k(data, [float(x) for x in term_weights(DEFAULT_WEIGHTS)])
    assert k == pytest.approx(0.8, rel=0.02)


def test_the_tuner_moves_the_weights_to_the_ones_the_data_were_made_with():
    true = Weights(knight=260, cohesion=12, defended=20)
    data = synthetic(true, 1.0)
    start = [float(x) for x in term_weights(DEFAULT_WEIGHTS)]
    before = texel_tune.mse(data, start, 1.0)
    # Only the three terms that differ are free, so the answer is unique.
    frozen = tuple(n for n in TERM_NAMES if n not in ("knight", "cohesion", "defended"))
    tuned, _ = texel_tune.tune(data, start, 1.0, 300, rate=2.0, frozen=frozen)
    after = texel_tune.mse(data, tuned, 1.0)
    assert after < before / 20
    got = dict(zip(TERM_NAMES, tuned, strict=True))
    assert got["knight"] == pytest.approx(260, abs=15)
    assert got["cohesion"] == pytest.approx(12, abs=3)
    assert got["defended"] == pytest.approx(20, abs=5)
    assert got["man"] == 100  # the anchor never moves


def test_the_gradient_is_the_slope_of_the_error_with_the_uncut_pair_race():
    # Positions where the endgame quarter cuts one side's lead, with a pair race count:
    # the analytic gradient must match finite differences of the error for every term.
    data = texel_tune.Data()
    rng = random.Random(3)
    for _ in range(40):
        counts = [float(rng.randint(-3, 3)) for _ in TERM_NAMES]
        data.add(counts, rng.random() < 0.5, rng.random() < 0.5, rng.random())
    w = [float(x) for x in term_weights(Weights(pair_race=60, hanging=30))]
    free = list(range(len(TERM_NAMES)))
    g = texel_tune.gradient(data, w, 1.0, free)
    for j in free:
        up, down = list(w), list(w)
        up[j] += 1e-3
        down[j] -= 1e-3
        slope = (texel_tune.mse(data, up, 1.0) - texel_tune.mse(data, down, 1.0)) / 2e-3
        assert g[j] == pytest.approx(slope, rel=1e-3, abs=1e-9), TERM_NAMES[j]


def test_three_seat_scale_and_offset_are_found_and_the_gradient_uses_the_offset():
    # Tri-Camelot positions labelled with the sigmoid of the score, shifted so that an even
    # position is worth a third of a win (B = log10(1/2)): the fit finds K and B.
    positions = playout_positions("tri-camelot", 3, 90, seed=4)
    ev = Evaluator(positions[0].variant)
    w = [float(x) for x in term_weights(ev.w)]
    data = texel_tune.Data()
    k_true, b_true = 0.7, math.log10(0.5)
    for pos in positions:
        counts, mine, theirs = ev.terms(pos, pos.turn)
        e = linear_score(counts, w, mine, theirs)
        data.add(counts, mine, theirs, 1 / (1 + 10 ** (-k_true * e / 400 - b_true)))
    k, bias = texel_tune.fit_scale(data, w, offset=True)
    assert k == pytest.approx(k_true, rel=0.02)
    assert bias == pytest.approx(b_true, abs=0.01)
    assert texel_tune.mse(data, w, k, bias) < texel_tune.mse(data, w, k) / 10
    free = [TERM_NAMES.index(n) for n in ("knight", "race_step", "threat1", "tempo")]
    g = texel_tune.gradient(data, w, 1.0, free, bias=-0.4)
    for j in free:
        up, down = list(w), list(w)
        up[j] += 1e-3
        down[j] -= 1e-3
        slope = (texel_tune.mse(data, up, 1.0, -0.4)
                 - texel_tune.mse(data, down, 1.0, -0.4)) / 2e-3
        assert g[j] == pytest.approx(slope, rel=1e-3, abs=1e-9), TERM_NAMES[j]


def test_split_keeps_games_whole():
    samples = [(g, f"p{g}-{i}", 0.5) for g in range(20) for i in range(3)]
    train, valid = texel_tune.split(samples, 0.25)
    assert len(valid) == 15 and len(train) == 45
    assert not {g for g, _, _ in train} & {g for g, _, _ in valid}


def test_weight_changes_check_names_and_values():
    assert weight_changes({"knight": 200, "race": [1, 2]}) == {"knight": 200, "race": (1, 2)}
    for bad, why in (({"queen": 9}, "unknown weight 'queen'"),
                     ({"knight": 1.5}, "'knight' takes a whole number"),
                     ({"man": True}, "'man' takes a whole number"),
                     ({"race": 5}, "'race' takes a list"),
                     ({"knight": 40000}, "'knight' must be within"),
                     ({"race": [100, -3000]}, "'race' must be within"),
                     ([1, 2], "JSON object")):
        with pytest.raises(ValueError, match=why):
            weight_changes(bad)
    # What the tuner writes is what the option reads, and Weights takes it whole.
    tuned = texel_tune.tuned_json(Weights(knight=210))
    assert Weights(**weight_changes(tuned)) == Weights(knight=210)
    # A non-term field a --start file set (it shaped the fit) goes with the weights; those
    # left as the game has them do not.
    started = Weights(knight=210, race_pieces=5)
    tuned = texel_tune.tuned_json(started, Weights())
    assert tuned["race_pieces"] == 5 and "versus_max" not in tuned
    assert Weights(**weight_changes(tuned)) == started


def test_eval_file_changes_the_evaluation_and_a_bad_one_changes_nothing(tmp_path):
    good = tmp_path / "w.json"
    good.write_text(json.dumps({"knight": 400}))
    s = Session()
    pos = setup("camelot", w="KD6 E6 F6", b="D11 E11 F11")
    s.set_position(pos.to_string(), [])
    before, _ = s.searcher().evaluate(s.position)
    s.set_option("EvalFile", str(good))
    after, _ = s.searcher().evaluate(s.position)
    assert after - before == 400 - 160  # one White Knight against Men
    bad = tmp_path / "bad.json"
    for content, why in (("{knight: 1}", "not JSON"), ('{"knight": "x"}', "whole number"),
                         ('{"queen": 9}', "unknown weight 'queen'")):
        bad.write_text(content)
        with pytest.raises(ProtocolError, match=why) as exc:
            s.set_option("EvalFile", str(bad))
        assert "\n" not in str(exc.value) and "EvalFile" in str(exc.value)
        assert s.searcher().evaluate(s.position)[0] == after
    with pytest.raises(ProtocolError, match="No such file"):
        s.set_option("EvalFile", str(tmp_path / "missing.json"))
    s.set_option("EvalFile", "")
    assert s.searcher().evaluate(s.position)[0] == before


def test_weights_from_a_file_leave_ablation_overrides_alone(tmp_path):
    # An ablation sets a `w_` option directly; weights from a file come and go beside it.
    from canter.engine.search.searcher import Searcher

    pos = setup("camelot", w="KD6 E6 F6 G6", b="D11 E11 F11")
    searcher = Searcher()
    searcher._search.options["w_cohesion"] = 50
    searcher.weights = {"knight": 400}
    with_both, _ = searcher.evaluate(pos)
    searcher.weights = {}
    cohesion_only, _ = searcher.evaluate(pos)
    assert searcher._search.options == {"w_cohesion": 50}
    assert with_both - cohesion_only == 400 - 160
    plain = Searcher().evaluate(pos)[0]
    assert cohesion_only - plain == (50 - 3) * (4 - 3)  # D6-E6-F6-G6 linked, D11-E11-F11


def test_eval_file_through_the_pipes(tmp_path):
    good = tmp_path / "w.json"
    good.write_text(json.dumps({"knight": 400, "race": [100, 50]}))
    start = "camelot 2/8/10/12/12/2BbbbbbbB2/3BbbbbB3/12/12/3WwwwwW3/2WwwwwwwW2/12/12/10/8/2"
    # White one Knight short: the Knight's weight shows in the score.
    short = start.replace("3WwwwwW3", "3Wwwww4") + " w 0,0 - - 0 0"
    commands = ["uci", f"position {short}", "eval",
                f"setoption name EvalFile value {tmp_path / 'nope.json'}",
                f"setoption name EvalFile value {good}", "eval",
                "go nodes 200", "isready", "quit"]
    run = subprocess.run([sys.executable, "-m", "canter"], input="\n".join(commands) + "\n",
                         capture_output=True, text=True, timeout=60)
    lines = run.stdout.splitlines()
    assert "option name EvalFile type string default <empty>" in lines
    evals = [int(x.split()[2]) for x in lines if x.startswith("eval cp")]
    errors = [x for x in lines if "error" in x]
    assert len(errors) == 1 and "option 'EvalFile' not set" in errors[0]
    assert "No such file" in errors[0]
    assert evals[1] < evals[0] - 200  # the missing Knight now costs 400, not 160
    assert any(x.startswith("bestmove ") for x in lines) and "readyok" in lines
    assert run.returncode == 0


@pytest.mark.parametrize("path", sorted(BENCH.glob("texel-*.json")), ids=lambda p: p.name)
def test_the_shipped_weight_files_load_and_change_their_game_s_evaluation(path):
    variant = "tri-camelot" if "tri-camelot" in path.name else "camelot"
    changes = weight_changes(json.loads(path.read_text(encoding="utf-8")))
    pos = playout_positions(variant, 1, 30, seed=1)[-1]
    built_in = Evaluator(pos.variant)
    tuned = Evaluator(pos.variant, replace(built_in.w, **changes))
    assert tuned.w != built_in.w
    assert any(tuned.relative(pos, s) != built_in.relative(pos, s)
               for s in range(pos.variant.nseats))


def test_the_tuner_never_writes_its_weights_over_its_data(tmp_path, monkeypatch):
    # Checked before the hours of tuning: `--out` naming the data file would destroy it.
    data = tmp_path / "data.texel"
    data.write_text("# game 0\n")
    monkeypatch.setattr(sys, "argv", ["texel_tune.py", str(data), "--out", str(data)])
    with pytest.raises(SystemExit) as exit_info:
        texel_tune.main()
    assert exit_info.value.code == 2
    assert data.read_text() == "# game 0\n"


def test_the_tuner_writes_no_weights_over_a_file_of_another_kind_nor_from_no_data(
        tmp_path, monkeypatch, capsys):
    mine = tmp_path / "mine.json"
    mine.write_text('{"my": "weights"}\n')
    data = tmp_path / "data.texel"
    data.write_text("")
    monkeypatch.setattr(sys, "argv", ["texel_tune.py", str(data), "--out", str(mine)])
    with pytest.raises(SystemExit) as exit_info:
        texel_tune.main()
    assert exit_info.value.code == 2 and "is not a weights file" in capsys.readouterr().err
    assert mine.read_text() == '{"my": "weights"}\n'
    out = tmp_path / "w.json"
    monkeypatch.setattr(sys, "argv", ["texel_tune.py", str(data), "--variant", "camette",
                                      "--iterations", "1", "--out", str(out)])
    with pytest.raises(SystemExit) as exit_info:
        texel_tune.main()
    assert "no position to fit" in str(exit_info.value.code)
    assert not out.exists()

