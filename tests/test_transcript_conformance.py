"""canter's own protocol conformance suite: every tests/transcripts/*.txt against canter.

Each transcript runs against a fresh `python -m canter` through plain pipes, exactly as
`canter transcript run tests/transcripts` does. One transcript that must fail against
canter shows that the suite can fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from canter.adapters.transcript.format import parse, parse_file
from canter.adapters.transcript.run import format_failure, run_transcript
from canter.adapters.transcript.session import default_engine

SUITE = sorted((Path(__file__).parent / "transcripts").glob("*.txt"))


def test_the_suite_is_there():
    names = {path.stem for path in SUITE}
    assert {"handshake", "options", "positions", "notation", "illegal", "referee", "perft",
            "go", "tri-camelot", "robustness", "cam", "camette", "chivalry"} <= names


@pytest.mark.parametrize("path", SUITE, ids=lambda p: p.stem)
def test_conformance_transcript(path):
    result = run_transcript(parse_file(str(path)), default_engine(), default_timeout=10)
    assert result.passed, "\n".join(format_failure(result, tail=20))


def test_a_wrong_expectation_fails_against_canter():
    transcript = parse("> isready\n< readyok\n> legal C6\n< legal C6-B5 C6-B6\n")
    result = run_transcript(transcript, default_engine(), default_timeout=10)
    assert not result.passed
    assert result.failure.step.line_no == 4
    assert result.failure.received == "'legal C6-B5 C6-B6 C6-B7 C6-C5 C6-C7 C6-D5 C6-E8'"


PENDING = sorted((Path(__file__).parent / "transcripts" / "pending").glob("*.txt"))


def test_known_protocol_bugs_still_fail():
    """Transcripts of known bugs (each says which; none at present): they must still fail.
    When one passes, the bug is fixed: move the transcript up into the suite."""
    fixed = [path.name for path in PENDING
             if run_transcript(parse_file(str(path)), default_engine(),
                               default_timeout=10).passed]
    assert not fixed, f"these pass now: move them to tests/transcripts/: {fixed}"


def test_recorded_canter_session_replays_green():
    """Record a session with canter (depth-limited searches keep their node counts exact,
    time and nps are loosened), then replay it against a fresh canter twice."""
    from canter.adapters.transcript.record import record_session

    commands = [
        "uci", "isready", "position startpos moves D6-F8 H11-F9", "go depth 2",
        "legal F8", "go infinite", "isready", "stop", "perft 1", "bogus", "quit",
    ]
    recording = record_session(default_engine(), iter(c + "\n" for c in commands), None,
                               interactive=False, settle=0.1, timeout=20)
    text = recording.transcript().render()
    assert "<* id name canter *\n" in text
    assert "> go infinite\n> isready\n... readyok\n> stop\n...* bestmove *\n" in text
    depth_2 = [line for line in text.splitlines() if line.startswith("<* info depth 2 ")]
    assert len(depth_2) == 1 and " nps * time * " in depth_2[0]
    assert re.search(r" nodes \d+ ", depth_2[0])  # exact: go depth is deterministic
    assert text.endswith("> quit\n@exit 0\n")
    for _ in range(2):
        result = run_transcript(parse(text), default_engine(), default_timeout=20)
        assert result.passed, "\n".join(format_failure(result, tail=20)) + "\n" + text
