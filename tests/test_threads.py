"""Threads > 1: Lazy SMP in helper processes over a table in shared memory (smp.py,
sharedtt.py). The shared table against the list table, the helpers' control words, legal
moves in every kind of game, stop and isready while helpers search, a helper killed with
SIGKILL, option errors, and Threads 1 unchanged. docs/search.md, "Threads"."""

from __future__ import annotations

import os
import pickle
import re
import signal
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pipe_engine import PipeEngine
from test_e2e_protocol import Engine as UciEngine

from canter.engine import Position, get_variant
from canter.engine.search import smp
from canter.engine.search.bench import bench_positions
from canter.engine.search.common import skips
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher
from canter.engine.search.sharedtt import SharedTable, pack_move, unpack_move
from canter.engine.search.tt import EXACT, LOWER, UPPER, TranspositionTable
from canter.protocol.session import ProtocolError, Session

pytestmark = pytest.mark.skipif(not smp.fork_available(), reason="helpers need fork")


def search(searcher: Searcher, pos: Position, limits: Limits, stop: StopFlag | None = None):
    infos = []
    result = searcher.search(pos.copy(), limits, infos.append, stop or StopFlag())
    return result, infos


def helper_pids(searcher: Searcher) -> list[int]:
    pool = searcher._pool
    return [p.pid for p in pool.procs if p is not None and p.is_alive()] if pool else []


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped) counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


# ---- the shared table --------------------------------------------------------------------

moves = st.tuples(st.integers(0, 232), st.integers(0, 232),
                  st.sets(st.integers(0, 232), max_size=6).map(
                      lambda cells: sum(1 << c for c in cells)))


@given(moves)
def test_a_move_of_up_to_six_captures_comes_back_from_its_word(key):
    word = pack_move(key)
    assert 0 < word < 1 << 64 and unpack_move(word) == key


def test_a_move_of_seven_captures_is_not_stored():
    assert pack_move((3, 40, sum(1 << c for c in (5, 9, 20, 31, 44, 60, 70)))) == 0
    assert unpack_move(0) is None


operations = st.lists(st.tuples(
    st.integers(0, 2**64 - 1).map(lambda k: k & ~0x3FF | 0x15),  # few slots, many keys
    st.integers(0, 12), st.sampled_from((EXACT, LOWER, UPPER)),
    st.integers(-100_500, 100_500), st.one_of(st.none(), moves),
    st.sampled_from(("store", "quiet", "new"))), max_size=60)


@settings(max_examples=60, deadline=None)
@given(operations)
def test_the_shared_table_keeps_what_the_list_table_keeps(ops):
    """Same slot count, same operations: every probe answers the same (keys share their
    low bits, so replacement decides often)."""
    listed, shared = TranspositionTable(1), SharedTable(1)
    shared.size, shared.mask = listed.size, listed.mask  # the same slots, in a larger map
    for key, depth, bound, score, move, what in ops:
        if what == "new":
            listed.new_search()
            shared.new_search()
        elif what == "quiet":
            listed.store_quiet(key, bound, score, move)
            shared.store_quiet(key, bound, score, move)
        else:
            listed.store(key, depth, bound, score, move)
            shared.store(key, depth, bound, score, move)
        for k, *_ in ops:
            assert shared.probe(k) == listed.probe(k)
    shared.close()


def test_a_torn_slot_reads_as_a_miss():
    table = SharedTable(1)
    key = 0x1234_5678_9ABC_DEF0
    table.new_search()
    table.store(key, 5, EXACT, 42, (10, 12, 0))
    assert table.probe(key) == (key, 5, EXACT, 42, (10, 12, 0), 1)
    i = (key & table.mask) * 3
    table.words[i + 1] ^= 1 << 30  # another process's write, half done: the score changed
    assert table.probe(key) is None
    table.store(key, 5, EXACT, 42, (10, 12, 0))
    table.clear()
    assert table.probe(key) is None and table.hashfull() == 0
    assert not any(table.words)  # every word, to the end of the map
    table.close()


def test_skip_pattern_staggers_the_helpers():
    # Helper 1 searches the even depths, helper 2 the odd ones; depth 1 is never skipped.
    assert [d for d in range(1, 9) if not skips(1, d)] == [1, 2, 4, 6, 8]
    assert [d for d in range(1, 9) if not skips(2, d)] == [1, 3, 5, 7]
    assert not any(skips(h, 1) for h in range(1, 64))


# ---- the searcher with helpers -------------------------------------------------------------

@pytest.fixture
def two():
    searcher = Searcher()
    searcher.threads = 2
    yield searcher
    searcher.close()


@pytest.mark.parametrize("index", range(12), ids=lambda i: f"bench{i}")
def test_two_threads_give_a_legal_move_in_every_game(two, index):
    pos = bench_positions()[index]
    result, infos = search(two, pos, Limits(depth=2))
    assert result.best in pos.legal_moves()
    assert len(helper_pids(two)) == 1
    assert any(i.depth == 2 for i in infos)


def test_helpers_search_and_their_nodes_are_reported(two):
    pos = bench_positions()[3]
    # The first search forks the helper; on a loaded machine a fresh helper may not have
    # been scheduled before a short search ends, so the measured search is the second one,
    # and deep enough to take a few tenths of a second.
    search(two, pos, Limits(depth=1))
    result, infos = search(two, pos, Limits(depth=5))
    main_nodes = two._smp.nodes
    last = [i for i in infos if i.depth == 5][-1]
    assert last.nodes > main_nodes  # the helper's nodes are counted in
    assert two._pool.alive == 1


def test_a_deeper_helper_iteration_is_read_back():
    pos = Position.start(get_variant("camelot"))
    legal = pos.legal_moves()
    table = SharedTable(1)
    pool = smp.HelperPool(2, table)
    try:
        control = pool.control
        base = smp.HELPER + smp.WORDS_EACH  # helper 2
        control[base + smp.DEPTH] = 6
        control[base + smp.MOVE] = pack_move(legal[7]._key)
        control[base + smp.SCORE] = -35 + smp.SCORE_OFFSET
        assert pool.deeper(4, legal) == (6, legal[7], -35, None)
        assert pool.deeper(6, legal) is None  # not deeper than the main search
        assert pool.deeper(4, legal[:7]) is None  # not among the moves allowed
        control[base + smp.SCORE] = smp.WIN_FLAG | (3 + smp.SCORE_OFFSET)
        assert pool.deeper(4, legal) == (6, legal[7], None, 3)
    finally:
        pool.close()
        table.close()


def test_stop_ends_main_search_and_helpers_at_once(two):
    pos = bench_positions()[0]
    stop = StopFlag()
    done = []
    thread = threading.Thread(target=lambda: done.append(search(two, pos, Limits(infinite=True),
                                                                stop)))
    thread.start()
    time.sleep(0.6)
    assert two._pool.control[smp.JOB] != 0  # the helper's job is running
    stopped = time.monotonic()
    stop.set()
    thread.join(5)
    assert not thread.is_alive() and time.monotonic() - stopped < 2.5
    assert done[0][0].best in pos.legal_moves()
    assert two._pool.control[smp.JOB] == 0  # the helpers were told at once
    nodes = two._pool.nodes()
    time.sleep(0.2)
    assert two._pool.nodes() == nodes  # and they stopped counting


def test_a_killed_helper_does_not_take_the_search_down(two):
    pos = bench_positions()[2]
    search(two, pos, Limits(depth=1))  # the helper is started
    [pid] = helper_pids(two)
    stop = StopFlag()
    done = []
    thread = threading.Thread(target=lambda: done.append(search(two, pos, Limits(movetime=1.0),
                                                                stop)))
    thread.start()
    time.sleep(0.3)
    os.kill(pid, signal.SIGKILL)
    thread.join(10)
    assert done and done[0][0].best in pos.legal_moves()
    # The next search says what happened and has a new helper.
    result, infos = search(two, pos, Limits(depth=2))
    assert result.best in pos.legal_moves()
    assert "helper 1 ended by SIGKILL; started again" in [i.string for i in infos]
    [new_pid] = helper_pids(two)
    assert new_pid != pid


def test_a_helper_that_keeps_dying_leaves_its_slot_empty(two):
    pos = bench_positions()[2]
    for _ in range(smp.RESTARTS + 1):
        search(two, pos, Limits(depth=1))
        os.kill(helper_pids(two)[0], signal.SIGKILL)
        two._pool.procs[0].join(5)
    result, infos = search(two, pos, Limits(depth=2))
    assert result.best in pos.legal_moves()
    assert (f"helper 1 ended by SIGKILL for the {smp.RESTARTS + 1}th time; searching with 1 "
            "process") in [i.string for i in infos]
    assert helper_pids(two) == []
    result, infos = search(two, pos, Limits(depth=2))  # and searches on alone
    assert result.best in pos.legal_moves()


def test_threads_change_and_close_end_the_helpers():
    searcher = Searcher()
    searcher.threads = 3
    pos = bench_positions()[0]
    search(searcher, pos, Limits(depth=1))
    pids = helper_pids(searcher)
    assert len(pids) == 2
    searcher.threads = 2
    assert not any(alive(p) for p in pids)
    search(searcher, pos, Limits(depth=1))
    pids = helper_pids(searcher)
    assert len(pids) == 1
    searcher.close()
    assert not any(alive(p) for p in pids)


def test_threads_one_searches_as_before():
    """Threads 1 after Threads 2 gives the node counts of a searcher that never had
    helpers; a cleared searcher per position, as `bench` does."""
    plain, switched = Searcher(), Searcher()
    switched.threads = 2
    pos = bench_positions()[3]
    search(switched, pos, Limits(depth=2))
    switched.threads = 1
    positions = bench_positions()
    for pos in (positions[2], positions[3], positions[5], positions[8]):
        plain.clear()
        switched.clear()
        a, _ = search(plain, pos, Limits(depth=3))
        b, _ = search(switched, pos, Limits(depth=3))
        assert (a.best, a.info.nodes, a.info.score_cp) == (b.best, b.info.nodes, b.info.score_cp)
    assert switched._pool is None


def test_skill_below_full_strength_searches_alone(two):
    two.skill = 5
    result, _ = search(two, bench_positions()[0], Limits(depth=2))
    assert result.best is not None and two._pool is None


# ---- the protocol --------------------------------------------------------------------------

def test_threads_option_errors_name_the_range():
    session = Session()
    for value, message in (("0", "option 'Threads' takes 1 to 64"),
                           ("65", "option 'Threads' takes 1 to 64"),
                           ("abc", "option 'Threads' takes a whole number"),
                           (None, "option 'Threads' needs a value")):
        with pytest.raises(ProtocolError, match=message):
            session.set_option("Threads", value)
    session.set_option("threads", "4")
    assert session.searcher().threads == 4


class Engine(UciEngine):
    """Either dialect: every line printable ASCII (the dialects' own tests check grammar)."""

    def __init__(self) -> None:
        PipeEngine.__init__(self, re.compile(r"^[ -~]*$"))

    def legal(self) -> list[str]:
        return self.ask("legal", "legal").split()[1:]


def children(pid: int) -> list[int]:
    """The child processes of every thread of `pid` (a helper is forked by a search thread,
    and passes to another thread of the engine when that one ends). While it passes, no
    thread's list holds it, so an empty answer is read again for up to two seconds."""
    if not os.path.exists(f"/proc/{pid}/task/{pid}/children"):
        pytest.skip("no /proc children lists here")
    deadline = time.monotonic() + 2.0
    while True:
        out = []
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                with open(f"/proc/{pid}/task/{task}/children") as f:
                    out += [int(x) for x in f.read().split()]
            except FileNotFoundError:
                pass  # a thread that ended meanwhile (its children passed to another)
        if out or time.monotonic() > deadline:
            return out
        time.sleep(0.05)


@pytest.mark.parametrize("variant", ["camelot", "tri-camelot", "grand-cam"])
def test_uci_threads_2_plays_stops_and_answers_isready(variant):
    engine = Engine()
    try:
        engine.send("uci")
        engine.until("uciok")
        engine.send("setoption name Threads value 2")
        engine.send(f"setoption name UCI_Variant value {variant}")
        engine.send("setoption name OwnBook value false")
        engine.send("position startpos")
        engine.send("go movetime 300")
        best = engine.until("bestmove")[-1].split()[1]
        assert best in engine.legal()
        engine.send("go infinite")
        time.sleep(0.5)
        assert len(children(engine.proc.pid)) == 1
        asked = time.monotonic()
        engine.send("isready")
        assert engine.until("readyok")[-1] == "readyok"
        assert time.monotonic() - asked < 3.0  # (held back, it would never come)
        asked = time.monotonic()
        engine.send("stop")
        engine.until("bestmove")
        assert time.monotonic() - asked < 3.0
    finally:
        assert engine.close() == 0


def test_uci_killed_helper_keeps_the_engine_playing():
    engine = Engine()
    try:
        engine.send("uci")
        engine.until("uciok")
        engine.send("setoption name Threads value 2")
        engine.send("position startpos moves D6-F8 H11-F9")
        engine.send("go depth 1")
        engine.until("bestmove")
        [helper] = children(engine.proc.pid)
        engine.send("go movetime 800")
        time.sleep(0.2)
        os.kill(helper, signal.SIGKILL)
        best = engine.until("bestmove")[-1].split()[1]
        assert best in engine.legal()
        engine.send("go movetime 200")
        lines = engine.until("bestmove")
        assert "info string helper 1 ended by SIGKILL; started again" in lines
        assert len(children(engine.proc.pid)) == 1
        helper = children(engine.proc.pid)[0]
    finally:
        assert engine.close() == 0
    time.sleep(0.2)
    assert not alive(helper)  # quit ends the helpers too


def test_cecp_cores_sets_the_processes():
    engine = Engine()
    try:
        engine.send("xboard")
        engine.send("protover 2")
        features = engine.until("feature done=1")
        assert any(" smp=1" in f for f in features)
        assert not any("Threads" in f for f in features)
        engine.send("cores 2")
        engine.send("option OwnBook=0")  # the start position is in the book
        engine.send("new")
        engine.send("st 0.3")
        engine.send("go")
        assert engine.until("move ")[-1].startswith("move ")
        assert len(children(engine.proc.pid)) == 1
        engine.send("force")
        engine.send("cores 1")
        engine.send("ping 1")
        engine.until("pong 1")
        assert children(engine.proc.pid) == []
    finally:
        assert engine.close() == 0


def test_bench_ignores_threads():
    """`bench` measures one process, whatever Threads says: the same node signature."""
    counts = []
    for threads in (1, 2):
        engine = Engine()
        try:
            engine.send(f"setoption name Threads value {threads}")
            counts.append(engine.ask("bench 2", "bench").split()[2])
        finally:
            assert engine.close() == 0
    assert counts[0] == counts[1]


@pytest.mark.parametrize("variant", ["camelot", "tri-camelot", "grand-cam", "chivalry"])
def test_a_search_job_is_small_and_rebuilds_the_same_game(variant):
    # A job goes to each helper through a pipe without blocking; one that does not fit
    # in the pipe's buffer (64 kB here) replaces the helper every search.
    pos = Position.start(variant)
    for _ in range(30):
        moves = pos.legal_moves()
        if not moves or pos.outcome() is not None:
            break
        pos.push(moves[len(moves) // 2])
    data = smp.job_bytes(1, pos, {}, {"lmr": 1}, 0, None, False)
    assert len(data) < 8192, len(data)
    back = pickle.loads(data)[1]
    assert back.variant is pos.variant and back.to_string() == pos.to_string()
    assert back.hash == pos.hash and back.legal_moves() == pos.legal_moves()
