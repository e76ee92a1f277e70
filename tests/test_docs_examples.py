"""Every position string quoted in docs/position-format.md parses and round-trips."""

import re
from pathlib import Path

from canter.engine import Position

DOC = Path(__file__).resolve().parent.parent / "docs" / "position-format.md"


def test_every_example_round_trips():
    examples = re.findall(r"^((?:camelot|tri-camelot) \S+ .*)$", DOC.read_text(), re.M)
    assert len(examples) >= 4
    for text in examples:
        assert Position.from_string(text).to_string() == text
