"""canter's own protocol conformance suite: every tests/transcripts/*.txt against canter.

Each transcript runs against a fresh `python -m canter` through plain pipes, exactly as
`canter transcript run tests/transcripts` does. One transcript that must fail against
canter shows that the suite can fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from canter.adapters.transcript import parse, parse_file
from canter.adapters.transcript_run import format_failure, run_transcript
from canter.adapters.transcript_session import default_engine

SUITE = sorted((Path(__file__).parent / "transcripts").glob("*.txt"))


def test_the_suite_is_there():
    names = {path.stem for path in SUITE}
    assert {"handshake", "options", "positions", "notation", "illegal", "referee", "perft",
            "go", "tri-camelot", "robustness"} <= names


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
