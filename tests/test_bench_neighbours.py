"""bench/neighbours.py: the logistic fit of a three-seat win on a seat's own score and its
neighbours', checked on data drawn from a known model and on a real game record."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import neighbours  # noqa: E402

from canter.adapters.records.format import read_games_file  # noqa: E402


def test_the_fit_finds_the_coefficients_the_data_were_drawn_from():
    rng = random.Random(7)
    truth = [-0.5, 1.2, -0.8]
    rows = []
    for _ in range(6000):
        x = [1.0, rng.gauss(0, 1), rng.gauss(0, 1)]
        p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(truth, x, strict=True))))
        rows.append((x, int(rng.random() < p)))
    w, se, loglik = neighbours.fit(rows)
    for got, want, err in zip(w, truth, se, strict=True):
        assert 0 < err < 0.1
        assert abs(got - want) < 4 * err, (w, se)
    assert loglik < 0


def test_rows_give_each_seat_its_own_and_its_neighbours_columns(tmp_path):
    # The first game of a committed record, alone in a file.
    game = read_games_file(str(ROOT / "bench/records/tri-maxn-tc.pgn"))[0]
    path = tmp_path / "one.pgn"
    path.write_text((ROOT / "bench/records/tri-maxn-tc.pgn").read_text().split(
        "\n\n[Event")[0] + "\n", encoding="utf-8")
    rows = neighbours.rows_of([str(path)], [12])[12]
    assert len(rows) == 3
    cols = neighbours.COLUMNS
    won = [y for _, y in rows]
    assert sum(won) == 1
    winner = game.tags["Reason"].split()[0]
    assert won[("blue", "red", "green").index(winner)] == 1
    # Blue's left is Red and its right Green; Red's left is Green; Green's left is Blue.
    for seat in range(3):
        x = rows[seat][0]
        left, right = rows[(seat + 1) % 3][0], rows[(seat + 2) % 3][0]
        for part in ("material", "position"):
            assert x[cols.index(f"left {part}")] == left[cols.index(f"own {part}")]
            assert x[cols.index(f"right {part}")] == right[cols.index(f"own {part}")]
        assert x[:3] == [1.0, float(seat == 1), float(seat == 2)]
    # Twelve plies in (six of them the book), material is whole Men (1.00) and Knights (1.60).
    for x, _ in rows:
        m = x[cols.index("own material")]
        assert any(abs(m - (men + 1.6 * kn)) < 1e-9 for men in range(6) for kn in range(4))


def test_the_command_prints_a_fit_per_ply_and_refuses_bad_plies(capsys):
    record = str(ROOT / "bench/records/tri-maxn-tc.pgn")
    assert neighbours.main(["--plies", "30", record]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ply 30: ") and "right position" in out
    assert "% of own position" in out
    with pytest.raises(SystemExit) as refused:
        neighbours.main(["--plies", "thirty", record])
    assert refused.value.code == 2
    assert "whole numbers separated by commas" in capsys.readouterr().err
