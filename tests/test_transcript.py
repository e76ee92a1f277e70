"""The transcript format, runner and recorder, against a tiny scripted engine.

The scripted engine (tests/scripted_engines/mini_uci.py) answers in a fixed way, with time
and nps that vary run to run. Transcripts under tests/scripted_engines/pass must pass;
those under tests/scripted_engines/fail must fail at the line and with the received text
their `# must fail at line N: TEXT` comment names.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from canter.adapters.transcript.format import (
    EXACT,
    GLOB,
    REGEX,
    CloseInput,
    Expect,
    ExpectExit,
    Matcher,
    Quiet,
    Send,
    SetTimeout,
    SkipTo,
    Sleep,
    TranscriptSyntaxError,
    escape_text,
    glob_escape,
    parse,
    parse_file,
    unescape_text,
)
from canter.adapters.transcript.record import (
    Recording,
    RecordingFailed,
    ends_search,
    loosen,
    record_session,
)
from canter.adapters.transcript.run import format_failure, run_transcript, summary

HERE = Path(__file__).parent
SCRIPTED = HERE / "scripted_engines"
MINI = [sys.executable, str(SCRIPTED / "mini_uci.py")]
MINI_COMMAND = f"{sys.executable} {SCRIPTED / 'mini_uci.py'}"
PASSING = sorted((SCRIPTED / "pass").glob("*.txt"))
FAILING = sorted((SCRIPTED / "fail").glob("*.txt"))


# ---- format --------------------------------------------------------------------------


def test_every_tag_parses_to_its_step():
    text = (
        "# comment\n"
        "\n"
        "> uci\n"
        ">\\ isready\\r\\n\n"
        "< uciok\n"
        "<* id name *\n"
        "<~ info depth \\d+\n"
        "... readyok\n"
        "...* bestmove *\n"
        "...~ bestmove \\S+\n"
        "@timeout 2.5\n"
        "@timeout default\n"
        "@quiet 0.1\n"
        "@sleep 0\n"
        "@eof\n"
        "@exit 0\n"
    )
    steps = parse(text).actions
    assert steps[0] == Send(3, "uci\n")
    assert steps[1] == Send(4, "isready\r\n", escaped=True)
    assert steps[2] == Expect(5, Matcher.make(EXACT, "uciok"))
    assert steps[3] == Expect(6, Matcher.make(GLOB, "id name *"))
    assert steps[4] == Expect(7, Matcher.make(REGEX, r"info depth \d+"))
    assert steps[5] == SkipTo(8, Matcher.make(EXACT, "readyok"))
    assert steps[6] == SkipTo(9, Matcher.make(GLOB, "bestmove *"))
    assert steps[7] == SkipTo(10, Matcher.make(REGEX, r"bestmove \S+"))
    assert steps[8:] == [
        SetTimeout(11, 2.5),
        SetTimeout(12, None),
        Quiet(13, 0.1),
        Sleep(14, 0.0),
        CloseInput(15),
        ExpectExit(16, 0),
    ]


def test_payload_keeps_inner_and_trailing_spaces_and_bare_tags_mean_empty_lines():
    steps = parse(">  two  spaces \n<\n>\n<* a\tb\n").actions
    assert steps[0] == Send(1, " two  spaces \n")
    assert steps[1] == Expect(2, Matcher.make(EXACT, ""))
    assert steps[2] == Send(3, "\n")
    assert steps[3].matcher.matches("a\tb")


@pytest.mark.parametrize(
    "line, message",
    [
        ("<! uciok", "unknown tag '<!'"),
        ("uci", "unknown tag 'uci'"),
        (" > uci", "may not start with a space"),
        ("<~ info (", "bad regular expression"),
        ("<* ends with \\", "lone backslash"),
        (">\\ bad \\q escape", "bad escape '\\q' (use \\\\ for a backslash)"),
        ("@timeout", "@timeout takes 1 argument(s), got 0"),
        ("@timeout soon", "seconds must be a number"),
        ("@timeout -1", "finite number >= 0"),
        ("@timeout nan", "finite number >= 0"),
        ("@exit zero", "exit code must be an integer"),
        ("@exit " + "9" * 5000, "exit code must be an integer"),  # (int() refuses)
        ("@sleep 1e300", "seconds must be at most 1000000"),  # (the clock overflows)
        ("@quiet 1e300", "seconds must be at most 1000000"),
        ("@timeout 1e7", "seconds must be at most 1000000"),
        ("@format " + "9" * 5000, "format version must be a number (at most 9 digits)"),
        ("@eof now", "@eof takes 0 argument(s)"),
        ("@expect uciok", "unknown directive '@expect'"),
        ("@format 2", "written for transcript format 2"),
    ],
)
def test_bad_lines_are_rejected_with_their_line_number(line, message):
    with pytest.raises(TranscriptSyntaxError) as error:
        parse(f"# first\n{line}\n", source="t.txt")
    assert error.value.line_no == 2
    assert str(error.value).startswith("t.txt:2: ")
    assert message in str(error.value)


def test_a_bad_escape_is_quoted_as_written_in_the_file():
    # (not as a Python repr, which would double the backslash: '\\q')
    for payload, written in [("isready\\q", "\\q"), ("a\\xZZ", "\\x"), ("end\\", "\\")]:
        with pytest.raises(TranscriptSyntaxError) as error:
            parse(f">\\ {payload}\n")
        assert f"bad escape '{written}' " in str(error.value)
        assert "\\\\" + written[1:] + "'" not in str(error.value)


def test_format_1_marker_is_accepted():
    assert parse("@format 1\n> uci\n").actions == [Send(2, "uci\n")]


def test_glob_semantics():
    glob = Matcher.make(GLOB, "info depth ? nps * pv A1\\*")
    assert glob.matches("info depth 3 nps 12 time 4 pv A1*")
    assert not glob.matches("info depth 3 nps 12 time 4 pv A1-A2")
    assert not glob.matches("info depth 10 nps 12 pv A1*")  # ? is exactly one character
    assert not glob.matches("xinfo depth 3 nps 1 pv A1*")  # the whole line must match
    assert Matcher.make(GLOB, glob_escape("a*b?c\\d")).matches("a*b?c\\d")
    assert not Matcher.make(GLOB, glob_escape("a*b")).matches("aXXb")


def test_regex_matches_whole_line_and_exact_is_exact():
    assert Matcher.make(REGEX, r"bestmove \S+").matches("bestmove C8-D9")
    assert not Matcher.make(REGEX, r"bestmove \S+").matches("bestmove C8-D9 ponder D9-E10")
    assert not Matcher.make(EXACT, "readyok").matches("readyok ")
    assert not Matcher.make(EXACT, "readyok").matches("READYOK")


def test_escapes_round_trip():
    for text in ["uci\r\n", " lead and trail ", "tab\there", "back\\slash", "\x00\x7f"]:
        assert unescape_text(escape_text(text)) == text
        assert "\n" not in escape_text(text) and "\r" not in escape_text(text)


def test_render_then_parse_gives_the_same_steps():
    for path in PASSING + [p for p in FAILING if "syntax" not in p.name and "format" not in p.name]:
        first = parse_file(str(path))
        again = parse(first.render())
        assert [s.render() for s in again.steps] == [s.render() for s in first.steps]
        assert [type(s) for s in again.steps] == [type(s) for s in first.steps]


def test_a_byte_order_mark_is_no_part_of_the_transcript(tmp_path):
    """A file some editors saved with a byte-order mark reads as the same transcript."""
    plain = PASSING[0].read_bytes()
    marked = tmp_path / "marked.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + plain)
    with_mark = parse_file(str(marked))
    without = parse_file(str(PASSING[0]))
    assert [s.render() for s in with_mark.steps] == [s.render() for s in without.steps]
    assert [s.line_no for s in with_mark.steps] == [s.line_no for s in without.steps]


# ---- runner against the scripted engine ----------------------------------------------


@pytest.mark.parametrize("path", PASSING, ids=lambda p: p.name)
def test_scripted_transcript_passes(path):
    result = run_transcript(parse_file(str(path)), MINI, default_timeout=5)
    assert result.passed, (result.failure, result.log)


def _must_fail(path: Path) -> tuple[int, str]:
    match = re.search(r"^# must fail at line (\d+): (.*)$", path.read_text(), re.MULTILINE)
    assert match, f"{path.name} does not say where it must fail"
    return int(match.group(1)), match.group(2)


@pytest.mark.parametrize("path", FAILING, ids=lambda p: p.name)
def test_scripted_transcript_fails_where_it_says(path):
    line_no, received = _must_fail(path)
    try:
        transcript = parse_file(str(path))
    except TranscriptSyntaxError as error:
        assert error.line_no == line_no
        assert received in str(error)
        return
    result = run_transcript(transcript, MINI, default_timeout=5)
    assert not result.passed
    assert result.failure.step.line_no == line_no
    assert received in result.failure.received


def test_failure_report_carries_expected_received_and_session_tail():
    transcript = parse("> isready\n< readyOK\n")
    result = run_transcript(transcript, MINI, default_timeout=5)
    assert result.failure.step_number == 2
    assert result.failure.expected == "'readyOK'"
    assert result.failure.received == "'readyok'"
    assert result.log == ["> isready", "< readyok"]
    assert result.stderr_tail == ["mini: started"]
    assert result.steps_run == 1


def test_the_report_tail_counts_lines_and_zero_shows_none():
    result = run_transcript(parse("> isready\n< readyOK\n"), MINI, default_timeout=5)
    assert format_failure(result, 1)[-3:] == [
        "    < readyok", "  last lines of the engine's stderr:", "    mini: started"]
    report = format_failure(result, 0)
    assert report[-2:] == ["    expected: 'readyOK'", "    received: 'readyok'"]
    assert not [line for line in report if "last lines" in line]


def test_the_report_cuts_long_lines():
    # A step may send megabytes: the report says where, not all of it, twice.
    result = run_transcript(parse("> isready\n< " + "x" * 100_000 + "\n"), MINI,
                            default_timeout=5)
    report = format_failure(result, 12)
    assert max(len(line) for line in report) < 400
    assert "more characters)" in report[0] and "more characters)" in report[1]


def test_lines_end_at_newlines_only():
    # An engine's output may hold U+0085 or U+2028, which str.splitlines breaks at: the
    # recorder writes them as they are, and they stay inside their line.
    steps = parse("> uci\n< id name caf\u2028e 1.0\n< a\x85< b\n< uciok\n").actions
    assert [step.matcher.pattern for step in steps[1:]] == [
        "id name caf\u2028e 1.0", "a\x85< b", "uciok"]


def test_timeout_is_per_step_and_does_not_wait_for_the_default():
    transcript = parse("> sleep 5\n@timeout 0.2\n< slept\n")
    result = run_transcript(transcript, MINI, default_timeout=30)
    assert result.failure.received == "nothing within 0.2 s"
    assert result.elapsed < 3  # the engine's 5 s sleep was cut short by stopping it


def test_missing_engine_is_a_failure_not_a_crash():
    result = run_transcript(parse("> uci\n"), ["/nonexistent/engine-binary"])
    assert not result.passed
    assert result.failure.step is None
    assert "No such file" in result.failure.received


def test_engine_that_talks_before_being_spoken_to_fails_a_quiet_step():
    transcript = parse("@quiet 0.3\n> isready\n< readyok\n")
    assert run_transcript(transcript, MINI, 5).passed
    chatty = run_transcript(transcript, MINI + ["--chatty"], 5)
    assert chatty.failure.received == "'mini engine ready to go'"


def test_exit_code_is_checked():
    transcript = parse("> quit\n@exit 4\n")
    assert run_transcript(transcript, MINI + ["--exit-code", "4"], 5).passed
    assert not run_transcript(transcript, MINI, 5).passed
    assert run_transcript(parse("> quit\n@exit\n"), MINI + ["--exit-code", "9"], 5).passed


def test_summary_line():
    ok = run_transcript(parse("> isready\n< readyok\n"), MINI, 5)
    bad = run_transcript(parse("> isready\n< nope\n"), MINI, 5)
    assert summary([ok, bad, ok]) == "2 passed, 1 failed"
    assert summary([]) == "0 passed, 0 failed"
    assert summary([bad], not_run=2) == "0 passed, 1 failed, 2 not run"
    assert summary([ok], not_run=0) == "1 passed, 0 failed"


# ---- recorder ------------------------------------------------------------------------


def test_loosen_makes_volatile_numbers_globs_and_leaves_the_rest_exact():
    fields = ("time", "nps", "hashfull")
    line = "info depth 4 seldepth 6 score cp 17 nodes 913 nps 45650 hashfull 3 time 20 pv C6-C7"
    matcher = loosen(line, fields)
    assert matcher.kind == GLOB
    assert matcher.pattern == (
        "info depth 4 seldepth 6 score cp 17 nodes 913 nps * hashfull * time * pv C6-C7"
    )
    assert loosen("readyok", fields) == Matcher.make(EXACT, "readyok")
    # A field name inside another word, or without a number after it, is left alone.
    assert loosen("info string timeout nps unknown", fields).kind == EXACT
    # Glob characters in the rest of the line are escaped.
    assert loosen("info string a*b time 3", fields).pattern == "info string a\\*b time *"
    assert loosen("Nodes/second : 123456", ("nodes/second",)).pattern == "Nodes/second : *"
    assert loosen("id name canter 0.1.0", fields).pattern == "id name canter *"
    tabbed = loosen("\tx ", fields)
    assert tabbed.kind == REGEX and tabbed.matches("\tx ") and "\t" not in tabbed.pattern


def _recorded(*events: tuple[str, str]) -> str:
    rec = Recording()
    for kind, text in events:
        rec.sent(text) if kind == ">" else rec.received(text)
    return rec.transcript().render()


def test_recording_a_depth_limited_search_keeps_nodes_exact():
    text = _recorded(
        (">", "go depth 1"),
        ("<", "info depth 1 nodes 12 nps 3400 time 3 pv A1-A2"),
        ("<", "bestmove A1-A2"),
    )
    assert text == (
        "> go depth 1\n<* info depth 1 nodes 12 nps * time * pv A1-A2\n< bestmove A1-A2\n"
    )


@pytest.mark.parametrize(
    "go", ["go movetime 100", "go wtime 1000 btime 1000", "go infinite", "go", "go depth 3 winc 5"]
)
def test_recording_a_search_limited_by_time_keeps_only_a_skip_to_bestmove(go):
    text = _recorded(
        (">", go),
        ("<", "info depth 1 nodes 12 nps 3400 time 3 pv A1-A2"),
        (">", "isready"),
        ("<", "info depth 2 nodes 40 nps 3400 time 9 pv A1-A2"),
        ("<", "readyok"),
        (">", "stop"),
        ("<", "bestmove A1-A2"),
        (">", "isready"),
        ("<", "readyok"),
    )
    assert text == (
        f"> {go}\n> isready\n... readyok\n> stop\n...* bestmove *\n> isready\n< readyok\n"
    )


def test_recording_with_threads_loosens_nodes_too():
    text = _recorded(
        (">", "setoption name Threads value 2"),
        (">", "go depth 1"),
        ("<", "bestmove A1-A2"),
        (">", "setoption name Threads value 1"),
        (">", "go depth 1"),
        ("<", "info depth 1 nodes 12 nps 3400 time 3 pv A1-A2"),
        ("<", "bestmove A1-A2"),
    )
    assert "...* bestmove *\n> setoption name Threads value 1" in text
    assert text.endswith("<* info depth 1 nodes 12 nps * time * pv A1-A2\n< bestmove A1-A2\n")


def test_recording_a_cecp_search_loosens_its_time_column_and_ends_at_its_move():
    # A depth-limited search (sd): its thinking output kept, the time column loosened;
    # the move ends the search, so the pong after it is checked exactly.
    text = _recorded(
        (">", "xboard"), (">", "sd 2"), (">", "usermove C6-E8"),
        ("<", "1 -2 3 100 C6-E8"), ("<", "2 2 12 968 D11-F9 D6-D8"),
        ("<", "move D11-F9"), (">", "ping 1"), ("<", "pong 1"),
    )
    assert text.endswith("> usermove C6-E8\n<* 1 -2 * 100 C6-E8\n<* 2 2 * 968 D11-F9 D6-D8\n"
                         "< move D11-F9\n> ping 1\n< pong 1\n")
    # Without sd (a clock decides), or with st, only a skip to the move; in force mode a
    # usermove starts no search.
    for limit in ("level 40 1 0", "st 1"):
        text = _recorded((">", "xboard"), (">", limit), (">", "go"),
                         ("<", "1 -2 3 100 C6-E8"), ("<", "move C6-E8"),
                         (">", "ping 2"), ("<", "pong 2"))
        assert text.endswith("> go\n...* move *\n> ping 2\n< pong 2\n"), text
    text = _recorded((">", "xboard"), (">", "force"), (">", "usermove C6-E8"),
                     (">", "ping 3"), ("<", "pong 3"))
    assert text.endswith("> usermove C6-E8\n> ping 3\n< pong 3\n")


def test_a_recorded_cecp_session_replays(tmp_path):
    out = tmp_path / "cecp.txt"
    done = _canter("record", "-q", "-o", str(out),
                   stdin="xboard\nprotover 2\nnew\nsd 2\npost\nusermove C6-E8\nping 1\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "\n< pong 1\n" in out.read_text()
    assert _canter("run", str(out)).returncode == 0


def test_recording_sends_awkward_lines_escaped():
    assert _recorded((">", "uci\t"), (">", "")) == ">\\ uci\\t\\n\n>\n"


def test_record_then_replay_round_trip_against_the_scripted_engine():
    commands = [
        "uci", "isready", "go depth 3", "go infinite", "isready", "stop", "go movetime 20",
        "go nodes 55", "echo \tliteral *glob* [chars]?", "bogus", "quit",
    ]
    recording = record_session(MINI, iter(c + "\n" for c in commands), None,
                               interactive=False, settle=0.05, timeout=5)
    text = recording.transcript().render()
    assert "<* info depth 3 score cp 30 nodes 300 nps * time * pv A1-A2\n" in text
    assert "> go infinite\n> isready\n... readyok\n> stop\n...* bestmove *\n" in text
    assert "<* info depth 1 nodes 55 nps * time * pv A1-A2\n< bestmove A1-A2\n" in text
    assert text.endswith("> quit\n@exit 0\n")
    for _ in range(2):  # time and nps differ between runs; the replay must not care
        result = run_transcript(parse(text), MINI, default_timeout=5)
        assert result.passed, (result.failure, text)


class _Echo:
    """An echo stream whose writes fail after the first line."""

    def __init__(self, error: Exception) -> None:
        self.error, self.lines = error, 0

    def write(self, text: str) -> None:
        self.lines += 1
        if self.lines > 1:
            raise self.error

    def flush(self) -> None:
        pass


def test_recording_goes_on_when_its_echo_breaks_and_fails_when_its_reader_does():
    commands = iter(["uci\n", "isready\n", "quit\n"])
    # The echo's reader went away (`| head`): the recording is whole all the same.
    recording = record_session(MINI, commands, _Echo(BrokenPipeError(32, "Broken pipe")),
                               interactive=False, settle=0.05, timeout=5)
    text = recording.transcript().render()
    assert "< uciok\n" in text and "< readyok\n" in text and text.endswith("@exit 0\n")
    # Anything else that stops the reader loses lines: the recording fails, whole or not.
    with pytest.raises(RecordingFailed, match="stopped reading the engine.*boom"):
        record_session(MINI, iter(["uci\n", "isready\n", "quit\n"]),
                       _Echo(RuntimeError("boom")), interactive=False, settle=0.05,
                       timeout=1)


def test_recording_waits_for_a_slow_stop_before_the_next_command():
    # the bestmove comes 0.5 s after the stop, past `settle`: it is still the stop's answer
    slow = MINI + ["--slow-stop", "0.5"]
    commands = ["go infinite", "stop", "isready", "quit"]
    recording = record_session(slow, iter(c + "\n" for c in commands), None,
                               interactive=False, settle=0.05, timeout=5)
    text = recording.transcript().render()
    assert "> stop\n...* bestmove *\n> isready\n< readyok\n> quit\n" in text
    assert run_transcript(parse(text), slow, default_timeout=5).passed


# Answers 0.4 s after each line, far past `settle`: an engine slow to start, or on a
# loaded machine, whose answers must still land under their own commands.
LAGGING = MINI + ["--lag", "0.4"]


def test_recording_waits_for_the_last_line_of_a_known_answer():
    commands = ["uci", "isready", "ping 7", "go depth 1", "quit"]
    recording = record_session(LAGGING, iter(c + "\n" for c in commands), None,
                               interactive=False, settle=0.05, timeout=5)
    text = recording.transcript().render()
    assert text.startswith(
        "> uci\n<* id name mini *\n< id author canter tests\n"
        "< option name Hash type spin default 16 min 1 max 64\n< uciok\n"
        "> isready\n< readyok\n> ping 7\n< pong 7\n> go depth 1\n")
    assert "< bestmove A1-A2\n> quit\n" in text
    assert run_transcript(parse(text), LAGGING, default_timeout=5).passed


def test_a_cecp_session_waits_for_its_known_answers_and_only_settles_after_the_rest():
    # `xboard` and `new` are answered by nothing: each costs the settle, not the timeout;
    # `protover` ends with `feature ... done=1`, a search with its `move`, `ping` with `pong`
    commands = ["xboard", "protover 2", "new", "force", "st 0.2", "go", "ping 3", "quit"]
    started = time.monotonic()
    recording = record_session([sys.executable, "-m", "canter"],
                               iter(c + "\n" for c in commands), None,
                               interactive=False, settle=0.05, timeout=8)
    assert time.monotonic() - started < 6  # (two timeouts would be 16 s)
    lines = recording.transcript().render().splitlines()
    go = lines.index("> go")
    assert lines[lines.index("> new") - 1].startswith("< feature ") and "done=1" in \
        lines[lines.index("> new") - 1]
    # (a search's lines are recorded loosely, `...`: its move may differ on replay)
    assert lines[lines.index("> ping 3") - 1].split()[-2:][0] == "move"
    assert lines[lines.index("> ping 3") + 1].endswith("pong 3")
    assert go == lines.index("> ping 3") - 2


@pytest.mark.parametrize("line, ends", [
    ("bestmove C6-B5", True), ("bestmove C6-B5 ponder H11-F9", True), ("move C6-B5", True),
    ("resign", True), ("1-0 {White wins: two pieces in the black castle}", True),
    ("1/2-1/2 {draw: third repetition}", True), ("0-1-0 {Red wins}", True),
    ("info depth 3 pv C6-B5", False), ("movetime", False), ("1-0x", False), ("", False),
])
def test_the_lines_that_end_a_search(line, ends):
    assert ends_search(line) is ends


def test_cli_record_keeps_answers_under_their_commands_with_a_slow_engine(tmp_path):
    out = tmp_path / "hs.txt"
    done = _canter("record", "-q", "--settle", "0.05", "--engine", f"{MINI_COMMAND} --lag 0.4",
                   "-o", str(out), stdin="uci\nisready\nquit\n")
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert lines[lines.index("> isready") - 1] == "< uciok"
    assert lines[lines.index("> isready") + 1] == "< readyok"


def test_recording_closes_input_and_records_the_exit_when_input_ends():
    recording = record_session(MINI + ["--exit-code", "5"], iter(["isready\n"]), None,
                               interactive=False, settle=0.3, timeout=5)
    text = recording.transcript().render()
    # On a loaded machine readyok may come after the input was closed; both orders replay.
    assert text in (
        "> isready\n< readyok\n@eof\n@exit 5\n",
        "> isready\n@eof\n< readyok\n@exit 5\n",
    )
    assert run_transcript(parse(text), MINI + ["--exit-code", "5"], 5).passed


# ---- command line --------------------------------------------------------------------


def _canter(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "canter", "transcript", *args],
        input=stdin, capture_output=True, text=True, timeout=60,
    )


def test_cli_run_reports_each_file_and_the_summary():
    done = _canter("run", "--engine", MINI_COMMAND, str(SCRIPTED / "pass"),
                   str(SCRIPTED / "fail" / "wrong_line.txt"))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0].startswith("PASS ") and lines[0].endswith(")")
    assert any(line.startswith("FAIL ") and "wrong_line.txt" in line for line in lines)
    assert "    expected: 'readyOK'" in lines
    assert "    received: 'readyok'" in lines
    assert lines[-1] == f"{len(PASSING)} passed, 1 failed"


def test_cli_run_fail_fast_counts_the_files_it_did_not_run():
    done = _canter("run", "-x", "--engine", MINI_COMMAND,
                   str(SCRIPTED / "fail" / "wrong_line.txt"),
                   str(SCRIPTED / "pass" / "handshake.txt"))
    assert done.returncode == 1
    assert "handshake.txt" not in done.stdout
    assert done.stdout.splitlines()[-1] == "0 passed, 1 failed, 1 not run"


def test_cli_run_all_passing_exits_zero_and_verbose_shows_the_session():
    done = _canter("run", "-v", "--engine", MINI_COMMAND, str(SCRIPTED / "pass" / "handshake.txt"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "    > uci" in done.stdout and "    < uciok" in done.stdout
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed"


def test_cli_run_counts_unreadable_transcripts_as_failures():
    done = _canter("run", "--engine", MINI_COMMAND, str(SCRIPTED / "fail" / "bad_syntax.txt"))
    assert done.returncode == 1
    assert "unknown tag '<!'" in done.stdout
    assert done.stdout.splitlines()[-1] == "0 passed, 1 failed"


def test_cli_help_names_the_options():
    text = " ".join(_canter("run", "--help").stdout.split())
    for option in ("--engine", "--timeout", "--verbose", "N passed, N failed"):
        assert option in text
    assert "--output" in _canter("record", "--help").stdout


def test_cli_record_writes_a_transcript_that_replays(tmp_path):
    out = tmp_path / "session.txt"
    done = _canter("record", "-q", "--settle", "0.05", "--engine", MINI_COMMAND, "-o", str(out),
                   stdin="uci\ngo depth 2\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "wrote " in done.stderr
    text = out.read_text()
    assert text.startswith("# recorded with: canter transcript record --engine ")
    assert "<* id name mini *\n" in text
    assert _canter("run", "--engine", MINI_COMMAND, str(out)).returncode == 0


# An engine that never reads its input: once the pipe is full, a write would wait for ever.
DEAF = [sys.executable, "-c", "import time; time.sleep(60)"]
LONG_LINE = "echo " + "x" * 995  # 1,000 characters: a few hundred of them fill a pipe


def test_what_an_engine_started_and_left_behind_is_killed_with_it(tmp_path):
    # The engine exits at the end of its input, in time; a child it forked lives on,
    # holding its output open. It must not outlive the transcript.
    pidfile = tmp_path / "child.pid"
    script = ("import os, sys, time\n"
              "if os.fork() == 0:\n"
              f"    open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
              "    time.sleep(60)\n"
              "    os._exit(0)\n"
              "for line in sys.stdin:\n"
              "    print('ok', flush=True)\n")
    result = run_transcript(parse("> hello\n< ok\n"), [sys.executable, "-c", script],
                            default_timeout=10)
    assert result.failure is None
    child = int(pidfile.read_text())
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        os.kill(child, 9)
        raise AssertionError("the engine's child outlived the transcript")


def test_a_send_to_an_engine_that_stopped_reading_fails_at_the_step_s_timeout():
    transcript = parse("@timeout 0.5\n" + f"> {LONG_LINE}\n" * 300)
    started = time.monotonic()
    result = run_transcript(transcript, DEAF, default_timeout=30)
    assert result.failure.expected == "the engine reading its input"
    assert result.failure.received == "its input was still full after 0.5 s"
    assert time.monotonic() - started < 10


def test_the_recorder_notes_an_engine_that_stopped_reading_and_sends_no_more():
    lines = iter([LONG_LINE + "\n"] * 300 + ["quit\n"])
    started = time.monotonic()
    recording = record_session(DEAF, lines, None, interactive=True, settle=0.05,
                               timeout=0.5)
    text = recording.transcript().render()
    assert "# the engine stopped reading its input: still full after 0.5 s\n" in text
    assert "# not sent, the engine had stopped reading: quit\n" in text
    assert recording.silence().startswith(
        "the engine stopped reading its input without saying anything")
    assert time.monotonic() - started < 15
