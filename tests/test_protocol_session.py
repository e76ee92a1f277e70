"""The session core in-process: positions, options, clocks, and the search job's guarantees
(exactly one answer, always a legal move) against searchers that misbehave on purpose."""

from __future__ import annotations

import threading
import time

import pytest
from answers import Answers

from canter.engine import Move, Position, format_move, parse_move
from canter.engine.search.limits import Limits, SearchInfo, SearchResult
from canter.protocol import options as opt
from canter.protocol.session import ProtocolError, Session, hard_budget

# Black's only piece on F9 in front of White's F8 (White also has E4): F8xF10 is compulsory.
CAPTURE_DUTY = "camelot 2/8/10/12/12/12/12/5b6/5w6/12/12/12/4w7/10/8/2 w 0,0 - - 0 30"


class FakeSearcher:
    hash_mb = multipv = skill = 0
    algorithm = "paranoid"

    def __init__(self, behaviour):
        self.behaviour = behaviour

    def clear(self):
        pass

    def evaluate(self, pos):
        return 0, ""

    def search(self, pos, limits, on_info, stop):
        return self.behaviour(pos, limits, on_info, stop)


def session_with(behaviour) -> Session:
    s = Session()
    s._searcher = FakeSearcher(behaviour)
    return s


def texts(session, moves):
    return [format_move(session.position.variant, m) for m in moves]


# ---- position ------------------------------------------------------------------------------
def test_bad_move_is_rejected_with_its_index_and_the_old_position_stays():
    s = Session()
    s.set_position(None, ["C6-B5", "H11-F9"])
    before = s.position_string()
    with pytest.raises(ProtocolError, match=r"move 3 \(B5-B3-Z9\)"):
        s.set_position(None, ["C6-B5", "H11-F9", "B5-B3-Z9"])
    assert s.position_string() == before
    with pytest.raises(ProtocolError, match=r"move 1 \(F8-F7\): illegal: a capture is compulsory"):
        s.set_position(CAPTURE_DUTY, ["F8-F7"])
    assert s.position_string() == before


def test_bad_position_string_names_the_field_and_keeps_the_position():
    s = Session()
    s.set_position(None, ["C6-B5"])
    before = s.position_string()
    with pytest.raises(ProtocolError, match="position rejected"):
        s.set_position("camelot 2/8/10 w", [])
    with pytest.raises(ProtocolError, match="position rejected"):
        s.set_position("chess rnbqkbnr w", [])
    assert s.position_string() == before


def test_growing_move_list_replays_to_the_same_position_as_a_fresh_session():
    game = ("D6-F8 H11-F9 C6-E8-G8 J11-H11 H6-H8 E11-G9 J6-H6 C11-E11 I6-I8 D11-D9 I8-J9 "
            "D10-D8xD6 E6xC6 I10xK8").split()
    growing = Session()
    for n in range(len(game) + 1):
        growing.set_position(None, game[:n])
    fresh = Session()
    fresh.set_position(None, game)
    assert growing.position_string() == fresh.position_string()
    assert len(growing.position.move_stack) == len(game)
    # A different list from the same base is replayed from scratch, not appended.
    growing.set_position(None, ["C6-B5"])
    assert len(growing.position.move_stack) == 1


def test_short_forms_and_case_are_accepted_in_move_lists():
    s = Session()
    s.set_position(None, ["d6-f8", "H11-F9", "c6-e8-g8"])
    t = Session()
    t.set_position(None, ["D6-F8", "h11-f9", "C6-G8"])  # the short form of the same canter
    assert s.position_string() == t.position_string()


def test_legal_of_one_cell_and_unknown_cell():
    s = Session()
    # The Knight on C6 at the start: six steps, and one canter over D7 to E8 (from E8
    # nothing more: F8 and D8 are empty, F7 would land on G6, occupied).
    assert s.legal_texts("c6") == [
        "C6-B5", "C6-B6", "C6-B7", "C6-C5", "C6-C7", "C6-D5", "C6-E8"]
    with pytest.raises(ProtocolError, match="no cell 'Z9'"):
        s.legal_texts("Z9")


# ---- options ---------------------------------------------------------------------------------
def test_option_errors_leave_everything_as_it_was():
    s = Session()
    for name, value, message in [
        ("Nope", "1", "unknown option"),
        ("Hash", "0", "takes 1 to 4096"),
        ("Hash", "lots", "whole number"),
        ("Ponder", "maybe", "true or false"),
        ("UCI_Variant", "chess", "one of"),
        ("Rule Repetition", "sometimes", "one of"),
    ]:
        with pytest.raises(ProtocolError, match=message):
            s.set_option(name, value)
    assert s.values == {} and s.rule_overrides == {} and s.variant_name == "camelot"


def test_option_names_ignore_case_and_spacing_and_reach_the_searcher():
    s = Session()
    s.set_option("move   OVERHEAD", "120")
    s.set_option("skill level", "3")
    assert s.overhead == pytest.approx(0.12)
    assert s.searcher().skill == 3


def test_empty_shown_as_empty_is_the_empty_string(tmp_path):
    # `uci` shows an empty default as <empty>; a GUI that sends it back means "".
    s = Session()
    weights = tmp_path / "w.json"
    weights.write_text('{"knight": 170}')
    s.set_option("EvalFile", str(weights))
    s.set_option("Search Switches", "lmr=1")
    assert s.eval_weights == {"knight": 170} and s.switches == {"lmr": 1}
    for name in ("EvalFile", "Search Switches", "BookFile", "TablePath"):
        s.set_option(name, "<empty>")
        assert s.values.get(opt.option_key(name), "") == ""
    assert s.eval_weights == {} and s.switches == {} and s.book_file is None


@pytest.mark.parametrize("text", ["[" * 100_000, "1" * 5000])
def test_an_eval_file_json_cannot_read_is_refused_in_one_line(tmp_path, text):
    # Nesting past the recursion limit, a number past int's digit limit: not JSONDecodeError.
    weights = tmp_path / "w.json"
    weights.write_text(text)
    s = Session()
    with pytest.raises(ProtocolError, match="JSON canter cannot read") as err:
        s.set_option("EvalFile", str(weights))
    assert "\n" not in str(err.value) and s.eval_weights == {}


def test_rule_options_follow_the_variant_until_set():
    s = Session()
    assert s.position.rules.quiet_limit == 100
    s.set_option("UCI_Variant", "tri-camelot")
    assert s.position.variant.name == "tri-camelot"
    assert s.position.rules.quiet_limit == 150 and s.position.rules.no_move == "pass"
    s.set_option("Rule Quiet Limit", "40")
    s.set_option("UCI_Variant", "camelot")
    assert s.position.rules.quiet_limit == 40
    assert s.position.rules.no_move == "lose"


def test_a_rule_option_the_game_never_consults_is_set_with_a_warning():
    s = Session()
    # Two players: a side with no move always ends the game, whatever Rule No Move says.
    (warning,) = s.set_option("Rule No Move", "pass")
    assert warning.startswith("Rule No Move changes nothing in camelot: a side with no legal")
    assert s.position.rules.no_move == "pass"  # set all the same
    assert s.set_option("Rule No Move", "lose") == []  # the game's own default: no warning
    assert s.set_option("Rule Quiet Limit", "60") == []  # consulted everywhere
    assert s.set_option("Rule Parker 1887", "true") == []  # a two-player ruling
    assert "only team games" in s.set_option("Rule Side Castles", "own")[0]
    # A game that does not consult one of them now: each is named when it is selected.
    warnings = s.set_option("UCI_Variant", "tri-camelot")
    assert [w.split(" changes")[0] for w in warnings] == ["Rule Parker 1887",
                                                           "Rule Side Castles"]
    assert all(" in tri-camelot: " in w for w in warnings)
    assert s.set_option("UCI_Variant", "grand-cam") == [
        "Rule Parker 1887 changes nothing in grand-cam: Parker's 1887 endings are for "
        "two-player games"]
    assert s.set_option("UCI_Variant", "grand-cam") == []  # no change, nothing to say


def test_rule_option_that_would_end_the_game_earlier_is_refused():
    s = Session()
    s.set_position(None, ["C6-B5", "H11-F9", "B5-A4"])  # three quiet plies
    with pytest.raises(ProtocolError, match="Rule Quiet Limit"):
        s.set_option("Rule Quiet Limit", "2")
    assert s.position.rules.quiet_limit == 100 and len(s.position.move_stack) == 3
    s.set_option("Rule Quiet Limit", "3")  # reachable: the game is now drawn
    assert s.outcome() is not None and "3 plies" in s.outcome().text()


# ---- clocks ----------------------------------------------------------------------------------
def test_hard_budget_by_hand():
    assert hard_budget(Limits(movetime=1.0), 0, 0.03) == pytest.approx(0.97)
    assert hard_budget(Limits(movetime=0.04), 0, 0.03) == pytest.approx(0.02)  # half
    assert hard_budget(Limits(infinite=True, movetime=1.0), 0, 0.0) is None
    assert hard_budget(Limits(depth=3), 0, 0.0) is None
    # 10 s left, 1 s inc, 30 ms overhead: 0.4 * 9.97 + 0.5 = 4.488
    lim = Limits(time={0: 10.0, 1: 10.0}, inc={0: 1.0})
    assert hard_budget(lim, 0, 0.03) == pytest.approx(4.488)
    # with 20 moves to go: 3 * 9.97 / 20 + 0.5 = 1.9955
    lim.movestogo = 20
    assert hard_budget(lim, 0, 0.03) == pytest.approx(1.9955)
    # nearly flagged: 0.9 of what is left
    assert hard_budget(Limits(time={1: 0.1}, inc={1: 1.0}), 1, 0.0) == pytest.approx(0.09)


# ---- the search job --------------------------------------------------------------------------
def test_illegal_proposal_is_replaced_by_the_first_canonical_move():
    def bad(pos, limits, on_info, stop):
        v = pos.variant
        return SearchResult(Move(v.cell("A8"), v.cell("A9"), 0, (v.cell("A8"), v.cell("A9")),
                                 1))  # a step of no piece

    s = session_with(bad)
    a = Answers()
    assert a.start(s, Limits(depth=1))
    assert a.event.wait(5)
    s.stop_search()
    assert texts(s, [a.done[0][0]]) == ["C6-B5"]  # first legal move by spelling
    assert any("not allowed" in e for e in a.errors)


def _wait_for_the_deadline(pos, limits, on_info, stop):
    while not stop.is_set() and (stop.deadline is None or time.monotonic() < stop.deadline):
        time.sleep(0.01)
    return SearchResult(pos.legal_moves()[0])


def test_the_safety_net_takes_the_overhead_off_once():
    # 2.5 s left, Move Overhead 1 s: the net is 0.4 x (2.5 - 1) = 0.6 s, as documented; it
    # took the overhead off the clock a second time (0.4 x 0.5 = 0.2 s). A movetime keeps
    # its own: 3 - 1 = 2 s.
    s = session_with(_wait_for_the_deadline)
    s.set_option("Move Overhead", "1000")
    for limits, net in ((Limits(time={0: 2.5, 1: 2.5}), 0.6), (Limits(movetime=3.0), 2.0)):
        a = Answers()
        assert a.start(s, limits)
        job = s._job
        assert job.stop.deadline - job.started == pytest.approx(net)
        s.stop_search()
        assert a.event.wait(5)


def test_the_clock_runs_from_the_go():
    # Building the searcher on a first `go` (its table, its helpers) takes time that the
    # move's clock must count: the session's deadline is set from the `go`, not after.
    s = session_with(_wait_for_the_deadline)
    built = s.searcher

    def slow_to_build():
        time.sleep(0.3)
        return built()

    s.searcher = slow_to_build
    before = time.monotonic()
    a = Answers()
    assert a.start(s, Limits(movetime=1.0))
    job = s._job
    assert job.started - before < 0.25  # (the build's 0.3 s not counted)
    assert job.stop.deadline - before < 1.25
    s.stop_search()
    assert a.event.wait(5)


def test_a_crashed_search_is_answered_in_its_own_game_after_a_position_of_another():
    # A `position` of another game arrives during the search, and then the searcher fails:
    # the fallback answer is spelled, and chosen, in the game that was searched.
    go_on = threading.Event()

    def crash_later(pos, limits, on_info, stop):
        go_on.wait(5)
        raise RuntimeError("boom")

    s = session_with(crash_later)
    a = Answers()
    assert a.start(s, Limits(depth=1))
    tri = Position.start("tri-camelot").to_string()
    s.set_position(tri, [])  # (the search goes on with its own copy)
    go_on.set()
    assert a.event.wait(5), a.errors
    s.stop_search()
    camelot = Position.start("camelot")
    assert a.done[0][0] in camelot.legal_moves()
    assert format_move(camelot.variant, a.done[0][0]) == "C6-B5"  # first by spelling


def test_a_searcher_that_crashes_still_gets_a_legal_answer():
    def crash(pos, limits, on_info, stop):
        on_info(SearchInfo(depth=1, pv=[parse_move(pos, "I6-K6")]))
        raise RuntimeError("boom")

    s = session_with(crash)
    a = Answers()
    a.start(s, Limits(depth=1))
    assert a.event.wait(5)
    s.stop_search()
    assert len(a.done) == 1
    assert texts(s, [a.done[0][0]]) == ["I6-K6"]  # the pv it had reported
    assert any("boom" in e for e in a.errors)


def test_a_searcher_that_ignores_stop_is_answered_for_once():
    release = threading.Event()

    def deaf(pos, limits, on_info, stop):
        release.wait(10)
        return SearchResult(pos.legal_moves()[0])

    s = session_with(deaf)
    a = Answers()
    a.start(s, Limits(infinite=True))
    started = time.monotonic()
    s.stop_search(grace=0.2)
    assert time.monotonic() - started < 2
    assert len(a.done) == 1 and a.done[0][0] in s.position.legal_moves()
    release.set()
    time.sleep(0.2)
    assert len(a.done) == 1  # the late result is dropped


def test_infinite_answer_is_held_until_stop():
    s = Session()
    a = Answers()
    a.start(s, Limits(infinite=True))
    assert not a.event.wait(0.3)
    assert s.searching
    s.stop_search()
    assert len(a.done) == 1 and not s.searching


def test_ponder_is_held_until_ponderhit_then_answered():
    s = Session()
    a = Answers()
    a.start(s, Limits(ponder=True, time={0: 5.0, 1: 5.0}))
    assert not a.event.wait(0.3)
    assert s.ponderhit()
    assert a.event.wait(5)
    assert len(a.done) == 1
    assert not s.ponderhit()  # nothing left to hit


def test_a_ponderhit_may_bring_the_clocks_as_they_now_stand():
    s = Session()
    a = Answers()
    a.start(s, Limits(ponder=True, time={0: 1000.0, 1: 1000.0}))
    assert not a.event.wait(0.3)
    hit = time.monotonic()
    assert s.ponderhit(Limits(time={0: 0.5, 1: 0.5}))
    assert a.event.wait(5) and time.monotonic() - hit < 2.0
    assert len(a.done) == 1


def test_session_deadline_stops_a_searcher_that_only_polls_the_flag():
    def polls(pos, limits, on_info, stop):
        while not stop.is_set():
            time.sleep(0.001)
        return SearchResult(pos.legal_moves()[-1])

    s = session_with(polls)
    s.set_option("OwnBook", "false")  # the start is in the book: it would answer at once
    a = Answers()
    started = time.monotonic()
    a.start(s, Limits(movetime=0.2))
    assert a.event.wait(5)
    elapsed = time.monotonic() - started
    assert 0.1 <= elapsed < 1.5
    s.stop_search()


def test_searchmoves_restrict_the_answer():
    s = Session()
    a = Answers()
    wanted = s.parse_moves(["J6-K7", "I6-K6"])[0]
    a.start(s, Limits(depth=2, searchmoves=wanted))
    assert a.event.wait(5)
    s.stop_search()
    assert texts(s, [a.done[0][0]])[0] in ("I6-K6", "J6-K7")


def test_no_search_on_a_decided_position():
    s = Session()
    s.set_position(CAPTURE_DUTY, ["F8xF10"])
    a = Answers()
    assert not a.start(s, Limits(depth=1))
    assert a.done == [] and not s.searching
    assert s.outcome().text() == "white wins: black has no pieces left"


@pytest.mark.parametrize("option", ["EvalFile", "BookFile"])
def test_a_pipe_as_an_option_file_is_refused_at_once(tmp_path, option):
    # Opening a pipe that nobody writes would wait for ever, and the engine with it.
    import os

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    s = Session()
    with pytest.raises(ProtocolError, match=f"option '{option}' not set: .*: a pipe, not a "
                                            "file"):
        s.set_option(option, str(pipe))


def test_a_pipe_in_a_tables_place_is_passed_over(tmp_path):
    import os

    from canter.engine.search.endings import SUFFIX, shipped, shipped_keys
    from canter.protocol.session import table_folder

    key = shipped_keys()[0]
    os.mkfifo(tmp_path / (key + SUFFIX))
    load, keys = table_folder(str(tmp_path))
    assert key in keys
    assert load(key) == shipped(key) is not None  # not read: it would wait for ever


def _races_built(s: Session) -> bool:
    return s.searcher()._search.evaluator(s.position).pair_races is not None


@pytest.mark.parametrize("dialect, command", [("uci", "isready"), ("cecp", "ping 7")])
def test_isready_and_ping_build_the_race_tables_before_any_search(dialect, command):
    # The first ending a search scores would otherwise build them on its clock.
    import io

    from canter.protocol.cecp import CecpDialect
    from canter.protocol.output import Output
    from canter.protocol.uci import UciDialect

    s = Session()
    s.set_option("UCI_Variant", "chivalry")
    assert not _races_built(s)
    stream = io.BytesIO()
    talk = (UciDialect if dialect == "uci" else CecpDialect)(s, Output(stream))
    talk.handle(command.split())
    assert stream.getvalue().decode().split()[0] in ("readyok", "pong")
    assert _races_built(s)


def test_a_changed_rule_clears_the_table():
    # A position's hash does not hold the rules: a table filled under the old rulings
    # answered the next search with their scores (-145 under Parker's endings, where a
    # fresh search scores -227).
    from canter.engine.search.limits import Limits, StopFlag

    text = "camelot 2/8/10/12/12/12/12/3W1b6/7B4/12/6W5/12/12/10/8/2 w 0,0 - - 0 0"

    def score(s: Session) -> int:
        s.set_position(text, [])
        result = s.searcher().search(s.position.copy(), Limits(depth=4), lambda i: None,
                                     StopFlag())
        return result.info.score_cp

    fresh = Session()
    fresh.set_option("Rule Parker 1887", "true")
    expected = score(fresh)
    s = Session()
    score(s)  # fills the table under Camelot's own rulings
    s.set_option("Rule Parker 1887", "true")
    assert score(s) == expected


def test_isready_allocates_a_changed_hash_table_before_any_search():
    # A first `go` after `setoption name Hash` allocated it on its clock: 0.3 s for 4 GB.
    from canter.engine.search.tt import ENTRY_BYTES

    s = Session()
    s.set_option("Hash", "32")
    tt = s.searcher()._tt
    assert tt.mb == 16
    s.prepare()
    assert tt.mb == 32 and tt.size == 1 << (32 * 1024 * 1024 // ENTRY_BYTES).bit_length() - 1


def test_prepare_builds_nothing_for_three_seats_or_during_a_search():
    s = Session()
    s.set_option("UCI_Variant", "tri-camelot")
    s.prepare()
    assert s.searcher()._search.evaluator(s.position).races is False
    s = Session()
    s.set_option("UCI_Variant", "camelot")
    s.hold_answer("infinite", lambda move, ponder: None)  # counts as a search running
    s.prepare()
    assert not _races_built(s)
    s.stop_search()
    s.prepare()
    assert _races_built(s)


# ---- MultiPV, the played game, the time of a go -----------------------------------------
def test_the_fallback_answer_is_the_main_lines_move_not_the_last_lines():
    # With MultiPV the searcher reports the k-th best line last: a searcher that then fails
    # was answered with that line's move, the worst of those it had found.
    def two_lines_then_crash(pos, limits, on_info, stop):
        on_info(SearchInfo(depth=1, multipv=1, score_cp=50, pv=[parse_move(pos, "I6-K6")]))
        on_info(SearchInfo(depth=1, multipv=2, score_cp=-80, pv=[parse_move(pos, "C6-B5")]))
        raise RuntimeError("boom")

    s = session_with(two_lines_then_crash)
    a = Answers()
    assert a.start(s, Limits(depth=1))
    assert a.event.wait(5)
    s.stop_search()
    assert texts(s, [a.done[0][0]]) == ["I6-K6"]


def test_the_book_follows_the_game_of_the_position_string():
    # The position string's game governs whatever UCI_Variant says (docs/protocol.md).
    from canter.engine.search.book import shipped_book

    camelot = Position.start("camelot").to_string()
    s = Session()
    s.set_option("UCI_Variant", "chivalry")
    s.set_position(camelot, [])
    assert s.book() is shipped_book("camelot")
    s._searcher = FakeSearcher(_wait_for_the_deadline)
    a = Answers()
    assert a.start(s, Limits(time={0: 10.0, 1: 10.0}))
    assert a.event.wait(5)
    s.stop_search()
    assert [i.string for i in a.infos if i.string] == ["book move"]


def test_rule_warnings_follow_the_game_of_the_position_string():
    camelot = Position.start("camelot").to_string()
    s = Session()
    s.set_option("UCI_Variant", "tri-camelot")
    s.set_position(camelot, [])
    assert s.set_option("Rule Parker 1887", "true") == []  # Camelot consults it
    assert s.book() is None  # and its book was built without it


class _SlowToStop:
    """A searcher that takes `delay` seconds to stop once told; the first search runs until
    stopped, the next ones wait for their deadline."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.searches = 0

    def __call__(self, pos, limits, on_info, stop):
        self.searches += 1
        if self.searches > 1:
            return _wait_for_the_deadline(pos, limits, on_info, stop)
        stop.event.wait(10)
        time.sleep(self.delay)
        return SearchResult(pos.legal_moves()[0])


@pytest.mark.parametrize("dialect", ["uci", "cecp"])
def test_stopping_the_running_search_is_part_of_the_time_of_the_go(dialect):
    # The move's clock runs from the moment the `go` is read (docs/protocol.md, Clocks):
    # a searcher slow to stop took that time from the clock unseen.
    import io

    from canter.protocol.cecp import CecpDialect
    from canter.protocol.output import Output
    from canter.protocol.uci import UciDialect

    s = session_with(_SlowToStop(0.5))
    s.set_option("OwnBook", "false")
    talk = (UciDialect if dialect == "uci" else CecpDialect)(s, Output(io.BytesIO()))
    if dialect == "uci":
        talk.handle(["go", "infinite"])
        before = time.monotonic()
        talk.handle(["go", "movetime", "2000"])
    else:
        talk.handle(["new"])
        talk.handle(["analyze"])  # an endless search, which the `go` stops
        talk.handle(["st", "2"])
        before = time.monotonic()
        talk.handle(["go"])
    after = time.monotonic()
    job = s._job
    assert after - before >= 0.5  # the old search took its time to stop
    assert job.started - before < 0.2
    assert job.stop.deadline - before < 2.2
    s.stop_search()
