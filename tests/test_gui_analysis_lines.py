"""The GUI's MultiPV lines while an engine reports a new depth line by line."""

from __future__ import annotations

from typing import Any

from canter.adapters.client.parse import parse_info
from canter.adapters.gui.workers import Analyser


def feed(lines: dict[int, dict[str, Any]], *reports: str) -> list[tuple[int, int, str]]:
    for report in reports:
        Analyser._take(parse_info(report), lines)
    return [(k, lines[k]["depth"], lines[k]["pv"][0]) for k in sorted(lines)]


DEPTH_3 = ("info depth 3 multipv 1 score cp 40 pv F7-F8 G10-G9",
           "info depth 3 multipv 2 score cp 30 pv G7-G8 F10-F9",
           "info depth 3 multipv 3 score cp 20 pv E7-E8 F10-F9")


def test_a_stale_line_that_repeats_a_new_first_move_is_dropped_until_reported():
    lines: dict[int, dict[str, Any]] = {}
    feed(lines, *DEPTH_3)
    # Depth 4's second line now starts with depth 3's third move.
    shown = feed(lines, "info depth 4 multipv 1 score cp 35 pv F7-F8 G10-G9",
                 "info depth 4 multipv 2 score cp 25 pv E7-E8 F10-F9")
    assert shown == [(1, 4, "F7-F8"), (2, 4, "E7-E8")]
    shown = feed(lines, "info depth 4 multipv 3 score cp 10 pv G7-G8 F10-F9")
    assert shown == [(1, 4, "F7-F8"), (2, 4, "E7-E8"), (3, 4, "G7-G8")]


def test_a_stale_line_with_a_first_move_of_its_own_stays():
    lines: dict[int, dict[str, Any]] = {}
    feed(lines, *DEPTH_3)
    shown = feed(lines, "info depth 4 multipv 1 score cp 35 pv G7-G8 G10-G9")
    # Line 2 (G7-G8 at depth 3) repeats the new line 1 and goes; line 3 has its own move.
    assert shown == [(1, 4, "G7-G8"), (3, 3, "E7-E8")]


def test_a_line_reported_again_at_its_depth_drops_a_line_that_repeats_it():
    lines: dict[int, dict[str, Any]] = {}
    # An engine may report line 1 again at the same depth (a fail-high, then the exact
    # score) with a new first move; the old line 2 with that move is stale as well.
    shown = feed(lines, *DEPTH_3, "info depth 3 multipv 1 score cp 45 pv G7-G8")
    assert shown == [(1, 3, "G7-G8"), (3, 3, "E7-E8")]


def test_a_report_without_depth_merges_into_its_line():
    lines: dict[int, dict[str, Any]] = {}
    feed(lines, *DEPTH_3)
    shown = feed(lines, "info multipv 2 nodes 5000 nps 10000")
    assert shown[1] == (2, 3, "G7-G8")
    assert lines[2]["nodes"] == 5000
