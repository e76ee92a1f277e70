"""Every position string quoted in docs/position-format.md parses and round-trips."""

import re
from pathlib import Path

from canter.engine import VARIANT_NAMES, Position

DOC = Path(__file__).resolve().parent.parent / "docs" / "position-format.md"


def test_every_example_round_trips():
    games = "|".join(re.escape(name) for name in VARIANT_NAMES)
    examples = re.findall(rf"^((?:{games}) \S+ .*)$", DOC.read_text(), re.M)
    assert {text.split()[0] for text in examples} == set(VARIANT_NAMES)
    for text in examples:
        assert Position.from_string(text).to_string() == text
