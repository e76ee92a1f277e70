"""SVG boards and the HTML game page: well-formed, one element per cell and per piece."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

from click.testing import CliRunner

from canter.adapters.pictures.cli import show
from canter.adapters.pictures.html import game_html
from canter.adapters.pictures.svg import Geometry, board_svg, game_svgs
from canter.engine import Position, get_variant, parse_move
from canter.engine.rules.textboard import render
from canter.engine.rules.variant import KNIGHT, MAN

NS = "{http://www.w3.org/2000/svg}"


def _classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def _parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == NS + "svg"
    return root


def _cells(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if "cell" in _classes(el)]


def _pieces(root: ET.Element) -> list[ET.Element]:
    return [el for el in root.iter() if "piece" in _classes(el)]


def test_camelot_start_has_160_squares_and_28_pieces() -> None:
    root = _parse(board_svg(Position.start(get_variant("camelot"))))
    cells = _cells(root)
    assert len(cells) == 160
    assert {el.tag for el in cells} == {NS + "rect"}
    assert len({el.get("data-cell") for el in cells}) == 160
    pieces = _pieces(root)
    assert len(pieces) == 28
    by_kind = {}
    for el in pieces:
        key = tuple(sorted(_classes(el) - {"piece"}))
        by_kind[key] = by_kind.get(key, 0) + 1
    assert by_kind == {("man", "white"): 10, ("knight", "white"): 4,
                       ("black", "man"): 10, ("black", "knight"): 4}
    castles = sorted(el.get("data-cell") for el in cells if "castle" in _classes(el))
    assert castles == ["F1", "F16", "G1", "G16"]


def test_tri_camelot_start_has_73_hexagons_and_24_pieces() -> None:
    root = _parse(board_svg(Position.start(get_variant("tri-camelot"))))
    cells = _cells(root)
    assert len(cells) == 73
    assert {el.tag for el in cells} == {NS + "polygon"}
    assert all(len(el.get("points").split()) == 6 for el in cells)
    pieces = _pieces(root)
    assert len(pieces) == 24
    for seat in ("blue", "red", "green"):
        mine = [el for el in pieces if seat in _classes(el)]
        assert len(mine) == 8
        assert sum("knight" in _classes(el) for el in mine) == 3
    castles = {el.get("data-cell"): _classes(el) for el in cells if "castle" in _classes(el)}
    assert set(castles) == {"F1", "A16", "K16"}
    assert "castle-blue" in castles["F1"] and "castle-red" in castles["A16"]


def test_pieces_sit_on_their_cells() -> None:
    v = get_variant("tri-camelot")
    pos = Position.start(v)
    root = _parse(board_svg(pos))
    drawn = {el.get("data-cell") for el in _pieces(root)}
    assert drawn == {v.cell_name(c) for c in v.cells if pos.piece_at(c) is not None}


def test_hexagon_neighbours_are_equally_far_apart() -> None:
    # Every pair of neighbouring hexagons shares an edge: centres sqrt(3) R apart, and no
    # two cells overlap (no pair closer than that).
    v = get_variant("tri-camelot")
    g = Geometry(v)
    step = math.sqrt(3) * g.unit
    for cell in v.cells:
        x, y = g.centre(cell)
        for n in v.board.neighbours[cell]:
            nx, ny = g.centre(n)
            assert math.isclose(math.hypot(nx - x, ny - y), step, rel_tol=1e-9)
    centres = [g.centre(c) for c in v.cells]
    closest = min(math.dist(a, b) for i, a in enumerate(centres) for b in centres[i + 1:])
    assert math.isclose(closest, step, rel_tol=1e-9)


def _jump_position() -> tuple[Position, object]:
    v = get_variant("camelot")
    pos = Position(v)
    for name, seat, kind in (("C5", 0, KNIGHT), ("C6", 0, MAN), ("D8", 1, MAN),
                             ("E10", 1, MAN), ("B13", 1, KNIGHT), ("L4", 1, MAN)):
        pos.put(v.cell(name), seat, kind)
    pos.reset_derived()
    move = parse_move(pos, "C5-C7xE9xE11")
    pos.push(move)
    return pos, move


def test_last_move_arrow_follows_route_and_captures_are_marked() -> None:
    pos, move = _jump_position()
    v = pos.variant
    g = Geometry(v)
    root = _parse(board_svg(pos, move))
    arrows = [el for el in root.iter() if "arrow" in _classes(el)]
    assert len(arrows) == 1
    points = [tuple(map(float, p.split(","))) for p in arrows[0].get("points").split()]
    route = [g.centre(v.cell(n)) for n in ("C5", "C7", "E9", "E11")]
    assert len(points) == 4
    for got, want in zip(points[:-1], route[:-1], strict=True):
        assert math.isclose(got[0], want[0]) and math.isclose(got[1], want[1])
    # the head stops short of E11's centre, on the leg from E9
    assert math.dist(points[-1], route[-1]) < math.dist(route[-2], route[-1])
    assert math.dist(points[-1], route[-1]) > 0
    crossed = sorted(el.get("data-cell") for el in root.iter() if "captured" in _classes(el))
    assert crossed == ["D8", "E10"]
    assert len(_pieces(root)) == 4  # the two captured men are gone


def test_game_svgs_and_html_page() -> None:
    v = get_variant("camelot")
    start = Position.start(v)
    pos = start.copy()
    moves = []
    for text in ("C6-B5", "C11-B10", "B5-B6"):
        move = parse_move(pos, text)
        pos.push(move)
        moves.append(move)
    svgs = game_svgs(start, moves)
    assert len(svgs) == 4
    for picture in svgs:
        root = _parse(picture)
        assert len(_cells(root)) == 160 and len(_pieces(root)) == 28
    page = game_html(start, moves, title="t", tags={"White": "a", "Black": "b"})

    class Frames(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.frames: list[str] = []
            self.external: list[str] = []

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if attrs.get("class") == "frame":
                self.frames.append(attrs["id"])
            for key in ("src", "href"):
                if attrs.get(key, "#").startswith(("http", "//", "file")):
                    self.external.append(attrs[key])

    parser = Frames()
    parser.feed(page)
    assert parser.frames == ["ply-0", "ply-1", "ply-2", "ply-3"]
    assert parser.external == []
    # each embedded SVG is itself well-formed
    embedded = re.findall(r"<svg .*?</svg>", page, flags=re.DOTALL)
    assert len(embedded) == 4
    for picture in embedded:
        _parse(picture)
    assert "C11-B10" in page
    # Every id on the page is unique, and each frame's arrow points at its own head (a
    # head in a hidden frame is not drawn).
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids))
    for i, picture in enumerate(embedded):
        for used in re.findall(r"url\(#([^)]+)\)", picture):
            assert f'id="{used}"' in picture, (i, used)


def test_show_command_text_and_files(tmp_path) -> None:
    runner = CliRunner()
    text = runner.invoke(show, ["--variant", "tri-camelot", "--no-color"])
    assert text.exit_code == 0, text.output
    assert text.output == render(Position.start(get_variant("tri-camelot"))) + "\n"

    out = tmp_path / "b.svg"
    result = runner.invoke(show, ["--variant", "tri-camelot", "--svg", str(out)])
    assert result.exit_code == 0, result.output
    assert len(_cells(_parse(out.read_text()))) == 73

    pos, _ = _jump_position()
    before = pos.copy()
    before.pop()
    result = runner.invoke(show, [*before.to_string().split(), "--move", "C5xE11",
                                  "--svg", str(out)])
    assert result.exit_code == 0, result.output
    root = _parse(out.read_text())
    assert sorted(el.get("data-cell") for el in root.iter()
                  if "captured" in _classes(el)) == ["D8", "E10"]

    bad = runner.invoke(show, ["camelot", "nonsense"])
    assert bad.exit_code != 0 and "bad position string" in bad.output


def _game_file(tmp_path, name: str, moves: tuple[str, ...]):
    from canter.adapters.records.format import GameRecord, write_game

    game = GameRecord.new("camelot", ["a", "b"])
    for text in moves:
        game.add_move(text)
    game.set_result("*")
    path = tmp_path / name
    path.write_text(write_game(game))
    return path


def test_svg_dir_removes_the_frames_of_an_earlier_longer_game(tmp_path) -> None:
    """A second, shorter game drawn into the same folder leaves only its own frames (the
    earlier game's later frames would play on after it); a numbered file canter did not
    draw is left as it is, and named."""
    runner = CliRunner()
    frames = tmp_path / "frames"
    long = _game_file(tmp_path, "long.pgn", ("F6-F8", "F11-F9", "G6-G8", "G11-G9"))
    short = _game_file(tmp_path, "short.pgn", ("F6-F8",))
    assert runner.invoke(show, [str(long), "--svg-dir", str(frames)]).exit_code == 0
    assert len(list(frames.iterdir())) == 5
    (frames / "0099.svg").write_text("<svg>mine</svg>")
    result = runner.invoke(show, [str(short), "--svg-dir", str(frames)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in frames.iterdir()) == ["000.svg", "001.svg", "0099.svg"]
    assert "removed 3 frames of an earlier drawing" in result.output
    assert "0099.svg" in result.output and "left as they are" in result.output
    assert (frames / "0099.svg").read_text() == "<svg>mine</svg>"
    # A picture drawn with --svg into the folder, under a frame's name, is no frame: kept.
    picture = frames / "100.svg"
    assert runner.invoke(show, ["--svg", str(picture)]).exit_code == 0
    again = runner.invoke(show, [str(short), "--svg-dir", str(frames)])
    assert again.exit_code == 0, again.output
    assert picture.exists() and "100.svg" in again.output  # named as not a frame


def test_show_game_file(tmp_path) -> None:
    from canter.adapters.records.format import GameRecord, write_game

    game = GameRecord.new("tri-camelot", ["a", "b", "c"])
    for text in ("F5-F9", "C12-D11", "I12-H11"):
        game.add_move(text)
    game.set_result("*")
    path = tmp_path / "g.pgn"
    path.write_text(write_game(game))
    runner = CliRunner()
    frames = tmp_path / "frames"
    result = runner.invoke(show, [str(path), "--svg-dir", str(frames), "--html",
                                  str(tmp_path / "g.html"), "--svg", str(tmp_path / "end.svg")])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in frames.iterdir())
    assert names == ["000.svg", "001.svg", "002.svg", "003.svg"]
    last = _parse((tmp_path / "end.svg").read_text())
    arrows = [el for el in last.iter() if "arrow" in _classes(el)]
    assert len(arrows) == 1 and len(arrows[0].get("points").split()) == 2
    assert (tmp_path / "g.html").read_text().count('class="frame"') == 4

    text = runner.invoke(show, [str(path), "--ply", "1", "--no-color"])
    assert text.exit_code == 0
    assert "last move: F5-F9; red to move" in text.output
    assert "ply 1 of 3" in text.output

    # negative: that many plies before the end (-1: before the last move)
    text = runner.invoke(show, [str(path), "--ply", "-1", "--no-color"])
    assert text.exit_code == 0, text.output
    assert "last move: C12-D11" in text.output and "ply 2 of 3" in text.output
    text = runner.invoke(show, [str(path), "--ply", "-3", "--no-color"])
    assert text.exit_code == 0 and "ply 0 of 3" in text.output
    text = runner.invoke(show, [str(path), "--ply", "-4", "--no-color"])
    assert text.exit_code != 0 and "-4 is outside -3..3" in text.output


def test_show_color_is_kept_when_asked_for_even_through_a_pipe() -> None:
    """click strips ANSI codes when stdout is not a terminal (the runner's stdout is not);
    an explicit --color must survive that, as in `canter show --color | less -R`."""
    runner = CliRunner()
    coloured = runner.invoke(show, ["--color"])
    assert coloured.exit_code == 0, coloured.output
    assert coloured.output == render(Position.start(get_variant("camelot")), color=True) + "\n"
    assert "\x1b[" in coloured.output
    plain = runner.invoke(show, [])  # not a terminal, not asked for: no codes
    assert plain.exit_code == 0 and "\x1b[" not in plain.output


def test_move_plays_on_from_the_ply_chosen(tmp_path) -> None:
    runner = CliRunner()
    game = _game_file(tmp_path, "g.pgn", ("F6-F8", "F11-F9", "G6-G8", "G11-G9"))
    result = runner.invoke(show, [str(game), "--ply", "1", "--move", "E11-E9", "--no-color"])
    assert result.exit_code == 0, result.output
    pos = Position.start(get_variant("camelot"))
    for text in ("F6-F8", "E11-E9"):
        pos.push(parse_move(pos, text))
    assert result.output.startswith(render(pos, last_move=pos.move_stack[-1]))
    assert "ply 2 of 2" in result.output
    start = runner.invoke(show, [str(game), "--ply", "-4", "--move", "C6-B5", "--no-color"])
    assert start.exit_code == 0, start.output
    assert "last move: C6-B5; black to move" in start.output
    far = runner.invoke(show, [str(game), "--ply", "5", "--move", "C6-B5"])
    assert far.exit_code == 2 and "the game has 4 plies; 5 is outside -4..4" in far.output
