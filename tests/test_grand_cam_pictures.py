"""Grand Cam in pictures: the cross board in four colours, turned to any seat (SVG, `canter
show --view`), and the text board's team line."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from canter.adapters.pictures.svg import SEAT_STYLE, board_svg
from canter.engine import Position
from canter.engine.rules.textboard import render

CASTLES = ("G1", "G13", "A7", "M7")  # Red, Green, Blue, Yellow


def cells_by_height(svg_text: str) -> list[tuple[float, float, str]]:
    root = ET.fromstring(svg_text)
    return sorted((float(e.get("y")), float(e.get("x")), e.get("data-cell"))
                  for e in root.iter() if "cell" in (e.get("class") or "").split())


def test_the_cross_board_in_four_colours() -> None:
    root = ET.fromstring(board_svg(Position.start("grand-cam")))
    cells = [e for e in root.iter() if "cell" in (e.get("class") or "").split()]
    assert len(cells) == 93
    castles = sorted(e.get("data-cell") for e in cells if "castle" in e.get("class").split())
    assert castles == sorted(CASTLES)
    fills = [e.get("fill") for e in root.iter() if e.tag.endswith("circle")]
    for seat in ("red", "green", "blue", "yellow"):
        assert fills.count(SEAT_STYLE[seat][0]) == 7  # seven pieces each, in its colour


@pytest.mark.parametrize("seat", range(4))
def test_the_board_turns_to_any_seat(seat: int) -> None:
    pos = Position.start("grand-cam")
    ordered = cells_by_height(board_svg(pos, view=seat))
    assert ordered[-1][2] == CASTLES[seat]  # that seat's castle is lowest
    assert ordered[0][2] == CASTLES[seat ^ 1]  # the opposite one highest
    # The partner's castle is on the left: Blue's for Red, Red's for Blue (seats sit
    # clockwise Red, Blue, Green, Yellow), Yellow's for Green, Green's for Yellow.
    left = {0: "A7", 1: "M7", 2: "G13", 3: "G1"}[seat]
    assert min(ordered, key=lambda c: c[1])[2] == left


def test_an_unturned_picture_is_unchanged_by_the_view_of_the_first_seat() -> None:
    for variant in ("camelot", "cam", "chivalry", "grand-cam"):
        pos = Position.start(variant)
        assert board_svg(pos) == board_svg(pos, view=0)


def test_show_turns_the_picture_and_refuses_a_bad_seat() -> None:
    run = [sys.executable, "-m", "canter", "show", "--variant", "grand-cam", "--svg", "-"]
    proc = subprocess.run([*run, "--view", "yellow"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and cells_by_height(proc.stdout)[-1][2] == "M7"
    proc = subprocess.run([*run, "--view", "purple"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode != 0
    assert "'purple' is not a seat of grand-cam (red, green, blue, yellow)" in proc.stderr
    text = subprocess.run(run[:-2] + ["--view", "yellow"], capture_output=True, text=True,
                          timeout=60)
    assert text.returncode == 2 and "--view" in text.stderr
    assert "turns pictures only" in text.stderr and not text.stdout


def test_the_text_board_names_the_teams_and_targets() -> None:
    lines = render(Position.start("grand-cam")).splitlines()
    assert lines[-2] == ("teams: red+blue against green+yellow; targets: red G13  green G1  "
                         "blue M7  yellow A7")
    assert lines[-1] == "red to move"
