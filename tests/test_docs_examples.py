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


def test_the_game_record_library_example_runs_and_its_game_replays(tmp_path, monkeypatch):
    """docs/game-records.md's Python example: its imports exist, its moves are legal."""
    text = (DOC.parent / "game-records.md").read_text()
    blocks = [b for b in re.findall(r"```python\n(.*?)```", text, re.S)
              if "GameRecord.new(" in b]
    assert len(blocks) == 1
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(compile(blocks[0], "game-records.md", "exec"), scope)  # noqa: S102
    assert scope["check"].error is None
    assert scope["game"].moves == ["F5-F9", "C12-D11"]
