"""The `Search Switches` option: search features turned on or off by name from outside, so
that the strength test can play a build against itself with one feature changed. A switch
set through the protocol must search exactly the tree the same option set in the search
gives, a bad value must be refused with one line and change nothing."""

from __future__ import annotations

import subprocess
import sys

import pytest

from canter.engine import Position
from canter.engine.search.alphabeta import SWITCHES, switch_changes
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher
from canter.protocol.session import ProtocolError, Session


def nodes_to(searcher: Searcher, pos: Position, depth: int = 3) -> int:
    searcher.clear()  # a table kept from the last search would cut this one short
    return searcher.search(pos, Limits(depth=depth), lambda info: None, StopFlag()).info.nodes


def direct(pos: Position, options: dict[str, int]) -> int:
    searcher = Searcher()
    searcher._search.options = dict(options)
    return nodes_to(searcher, pos)


def test_switches_are_read_by_name_with_commas_or_spaces():
    assert switch_changes("") == {}
    assert switch_changes("lmr=1,pvs=1") == {"lmr": 1, "pvs": 1}
    assert switch_changes(" selective=1  qdepth=4 ") == {"selective": 1, "qdepth": 4}
    assert switch_changes("killers=0, history=0") == {"killers": 0, "history": 0}
    # names in any case (as option names), spaces around '='
    assert switch_changes("LMR = 1, Pvs= 0") == {"lmr": 1, "pvs": 0}
    # every switch named is one the search reads
    assert {"lmr", "pvs", "ttmove", "prune", "nullmove", "qcharge"} <= set(SWITCHES)


@pytest.mark.parametrize("text,why", [
    ("queen=1", "unknown switch 'queen'"),
    ("lmr", "switch 'lmr' takes a whole number from 0 to 1"),
    ("lmr=2", "from 0 to 1"),
    ("lmr=-1", "from 0 to 1"),
    ("lmr=on", "from 0 to 1"),
    ("lmr=\u00b2", "from 0 to 1"),  # a superscript two is a digit to isdigit, not to int
    ("lmr=\u0661", "from 0 to 1"),  # an Arabic-Indic one: a decimal to Python, not here
    ("qdepth=99", "switch 'qdepth' takes a whole number from 0 to 32"),
    ("lmr=1,tables=0", "unknown switch 'tables'"),  # UseTables is its own option
    ("q" * 500 + "=1", "unknown switch 'q{40}[.][.][.]' "),  # a long name is not repeated
])
def test_a_bad_switch_is_named(text, why):
    with pytest.raises(ValueError, match=why):
        switch_changes(text)


def test_the_option_searches_the_tree_of_the_switch_and_a_bad_value_changes_nothing():
    pos = Position.start("camelot")
    default, plain = direct(pos, {}), direct(pos, {"selective": 0})
    assert plain != default  # the pruning changes a depth-3 tree
    s = Session()
    s.set_option("Search Switches", "selective=0")
    assert nodes_to(s.searcher(), pos) == plain
    for bad in ("selective=2", "nosuch=1"):
        with pytest.raises(ProtocolError, match="option 'Search Switches' not set") as exc:
            s.set_option("Search Switches", bad)
        assert "\n" not in str(exc.value)
        assert nodes_to(s.searcher(), pos) == plain
    s.set_option("Search Switches", "qdepth=2")  # replaces, does not add to, the last set
    assert nodes_to(s.searcher(), pos) == direct(pos, {"qdepth": 2}) != default
    s.set_option("Search Switches", "")
    assert nodes_to(s.searcher(), pos) == default


@pytest.mark.parametrize("variant,on", [
    ("camelot", True), ("chivalry", True), ("cam", True), ("camette", False)])
def test_the_selective_search_is_on_by_default_in_camelot_chivalry_and_cam_only(variant, on):
    # Kept by the strength test at 10+0.1 in Camelot, Chivalry and Cam; Camette (flat over
    # 1,000 games) keeps the full-width search.
    pos = Position.start(variant)
    default = direct(pos, {})
    plain, selective = direct(pos, {"selective": 0}), direct(pos, {"selective": 1})
    assert plain != selective
    assert default == (selective if on else plain)


def test_switches_and_weights_come_and_go_side_by_side():
    pos = Position.start("camelot")
    searcher = Searcher()
    searcher._search.options["w_cohesion"] = 50  # an ablation set directly stays
    searcher.weights = {"knight": 400}
    searcher.switches = {"lmr": 1}
    nodes_to(searcher, pos)
    assert searcher._search.options == {"w_cohesion": 50, "w_knight": 400, "lmr": 1}
    searcher.switches = {}
    nodes_to(searcher, pos)
    assert searcher._search.options == {"w_cohesion": 50, "w_knight": 400}


def test_search_switches_through_the_pipes():
    commands = ["uci", "setoption name Search Switches value lmr=1 pvs=maybe",
                "setoption name Search Switches value lmr=1 pvs=1", "position startpos",
                "go depth 2", "isready", "quit"]
    run = subprocess.run([sys.executable, "-m", "canter"], input="\n".join(commands) + "\n",
                         capture_output=True, text=True, timeout=60)
    lines = run.stdout.splitlines()
    assert "option name Search Switches type string default <empty>" in lines
    errors = [x for x in lines if "error" in x]
    assert len(errors) == 1 and "switch 'pvs' takes a whole number" in errors[0]
    assert any(x.startswith("bestmove ") for x in lines) and "readyok" in lines
    assert run.returncode == 0


@pytest.mark.parametrize("game", ["camelot", "cam", "chivalry"])
@pytest.mark.parametrize("switch", [0, 1])
def test_order_adv_puts_the_quiet_moves_that_gain_most_first(switch, game):
    # With no history and no killer, `order_adv` orders quiet moves by the steps they gain
    # towards the target castle; without it they keep the generator's order. (On by
    # default in Camelot alone; a switch in the other two-player games.)
    pos = Position.start(game)
    searcher = Searcher()
    searcher._search.options.update(order_adv=switch)
    searcher.search(pos.copy(), Limits(depth=1), lambda info: None, StopFlag())
    search = searcher._search
    search.history.clear()
    search.killers[0] = [None, None]
    dist = search.ev.target_dist[pos.turn]
    ordered = search._order(pos, pos.legal_moves(), None, 0)
    gains = [dist[m.start] - dist[m.end] for m in ordered]
    assert (gains == sorted(gains, reverse=True)) == bool(switch)


@pytest.mark.parametrize("switch", [0, 1])
def test_hist_malus_lowers_the_quiet_moves_searched_before_a_cut(switch):
    # Only the malus takes history below zero: without it every entry is a bonus.
    searcher = Searcher()
    searcher._search.options.update(hist_malus=switch)
    searcher.search(Position.start("camelot"), Limits(depth=4), lambda info: None,
                    StopFlag())
    values = searcher._search.history.values()
    assert any(v < 0 for v in values) == bool(switch)
    assert any(v > 0 for v in values)


def test_the_malus_takes_the_cutting_moves_bonus_and_is_journalled_while_staged():
    pos = Position.start("camelot")
    searcher = Searcher()
    searcher.search(pos.copy(), Limits(depth=1), lambda info: None, StopFlag())
    search = searcher._search
    a, b = pos.legal_moves()[:2]
    ka, kb = (pos.turn, a.start, a.end), (pos.turn, b.start, b.end)
    search.history = {ka: 5}
    search.staged_open = 1
    search.journal = []
    search._punish(pos.turn, [a, b], 3)
    assert search.history == {ka: 5 - 9, kb: -9}
    assert search.journal == [(ka, 5), (kb, 0)]
