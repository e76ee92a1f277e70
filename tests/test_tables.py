"""Endgame tables (docs/tables.md): the index, the retrograde build against hand-counted
positions and against a full search, the file format, the search's probe (tbhits, the
UseTables switch) and `canter tables`."""

from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from canter.adapters.tables.cli import tables as tables_command
from canter.engine import Position
from canter.engine.rules.board import Board
from canter.engine.rules.variant import KING_DIRECTIONS, _cam_family
from canter.engine.search.endings import (
    DRAW,
    LOSS,
    WIN,
    Endings,
    Indexer,
    Material,
    MaterialError,
    Table,
    TableError,
    classes,
    material_of,
    parse_material,
)
from canter.engine.search.endings.build import setup
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher

SMALL = ["camette-wM-bMM", "camette-wMM-bK"]


@pytest.fixture(scope="module")
def endings():
    """Two of Camette's three-piece classes (and the two-piece ones they need), a
    Tri-Camelot class and Camelot's one piece against one, built here in memory (a few
    seconds), never loaded from a file."""
    e = Endings(load=lambda key: None, available=[])
    for key in SMALL + ["tri-camelot-bK-rM", "camelot-wK-bM"]:
        e.build(parse_material(key))
    return e


def test_class_names_round_trip_and_refuse_nonsense():
    m = parse_material("camette-wKM-bK")
    assert m.key == "camette-wKM-bK" and m.count == 3
    assert m.pieces == ((1, 1), (1, 0))
    assert parse_material("bK-wMM", "camette").key == "camette-wMM-bK"  # White first
    assert parse_material("tri-camelot-gM-bK").key == "tri-camelot-bK-gM"
    for bad in ("camette-wKM", "camette-wMK-bK", "camette-wK-wM", "camette-xK-bM",
                "camette-w-bM", "grand-cam-rK-gK", "nosuch-wK-bK"):
        with pytest.raises(MaterialError):
            parse_material(bad)
    # Camette: one Knight and three Men a side, so 24 classes of two to four pieces.
    assert len(classes("camette", 4)) == 24
    assert {c.key for c in classes("camette", 2)} == {
        "camette-wK-bK", "camette-wK-bM", "camette-wM-bK", "camette-wM-bM"}
    assert len(classes("tri-camelot", 2)) == 12  # three pairs of seats, K or M each


def test_the_index_numbers_every_placement_once():
    m = parse_material("camette-wK-bMM")
    ix = Indexer(m)
    seen = set()
    pos = Position(m.variant)
    for pidx, placed in ix.placements():
        setup(pos, ix, placed, 0, 0, ())
        assert ix.placement(pos) == pidx
        seen.add(pidx)
    assert seen == set(range(m.placements))
    assert m.placements == 23 * (22 * 21 // 2)


def probe(endings, text):
    return endings.probe(Position.from_string(text))


def test_a_step_into_the_castle_wins_in_one(endings):
    # Camette: White's Man on C6 steps into Black's castle C7.
    assert probe(endings, "camette 1/1w1/5/5/1B3/3/1 w 0,0 - - 0 0") == (WIN, 1)
    # The same with Black to move: Black cannot stop it (no capture reaches C6): lost in 2.
    assert probe(endings, "camette 1/1w1/5/5/1B3/3/1 b 0,0 - - 0 0") == (LOSS, 2)
    # Tri-Camelot, Green out: Blue's Knight on B15 next to Red's castle A16 enters it.
    assert endings.probe(Position.from_string(_tri_entry())) == (WIN, 1)


def _tri_entry() -> str:
    pos = Position(Position.start("tri-camelot").variant)
    v = pos.variant
    pos.put(v.cell("B15"), 0, 1)  # Blue Knight beside Red's castle A16
    pos.put(v.cell("F9"), 1, 0)  # Red Man in the middle
    pos.eliminated = (2,)
    pos.reset_derived()
    return pos.to_string()


def test_capture_of_the_last_piece_and_the_material_draw(endings):
    # Camette: White's Man takes Black's last piece (B4 over B5 to B6): won in 1.
    assert probe(endings, "camette 1/3/5/1b3/1w3/3/1 w 0,0 - - 0 0") == (WIN, 1)
    # Camelot: one piece against one is a draw, whatever the cells (§1 End 3).
    table = endings.table(parse_material("camelot-wK-bM"))
    assert table.stats["win"] == table.stats["loss"] == 0
    pos = Position.from_string(
        "camelot 2/8/10/12/12/12/12/5b6/12/12/5W6/12/12/10/8/2 w 0,0 - - 0 0")
    assert endings.probe(pos) == (DRAW, 0)


def test_a_blockade_loses_at_once():
    """A game of the Cam family on a line of five cells (castles A1 and A5): no class of the
    real boards small enough to build here has a blockade, so the rules' data makes one."""
    board = Board("A", [(0, r) for r in range(1, 6)], KING_DIRECTIONS)
    line = _cam_family("line-of-five", board, ("A1", "A5"), ((0, "", "A2"), (1, "", "A4")))
    e = Endings(load=lambda key: None, available=[])
    e.build(Material(line, (0, 1), ((0, 1), (0, 2))))
    pos = Position(line)
    for cell, seat in (("A2", 0), ("A3", 1), ("A4", 1)):
        pos.put(line.cell(cell), seat, 0)
    pos.reset_derived()
    # White's Man on A2: A1 is its own castle (no step in), A3 is taken and the jump over
    # it would land on A4, taken too. No legal move: lost now (Cam: §6 End 3).
    assert pos.legal_moves() == []
    assert e.probe(pos) == (LOSS, 0)
    # Black to move jumps A3 over A2 into the white castle A1: won in 1.
    pos.turn = 1
    pos.reset_derived()
    assert e.probe(pos) == (WIN, 1)


def test_a_pending_exit_duty_is_a_state_of_its_own(endings):
    # White's Men on C1 (its own castle) and C2, Black's Knight on C3, White to move.
    # Free to choose, White takes the last piece: C2 over C3 to C4, won in 1.
    free = "camette 1/3/5/5/2B2/1w1/w w 0,0 - - 0 0"
    assert probe(endings, free) == (WIN, 1)
    # The Man on C1 has just jumped in and must leave (and has no capture): to B2 or D2,
    # and then Black's Knight jumps C2 and lands in the white castle C1: lost in 2.
    assert probe(endings, free.replace(" - - ", " C1 - ")) == (LOSS, 2)


def test_the_file_format_round_trips(endings):
    table = endings.table(parse_material("camette-wMM-bK"))
    data = table.to_bytes()
    again = Table.from_bytes(data)
    assert bytes(again.base) == bytes(table.base)
    assert list(again.extra_keys) == list(table.extra_keys)
    assert list(again.extra_values) == list(table.extra_values)
    assert again.stats == table.stats
    with pytest.raises(TableError):
        Table.from_bytes(data[:len(data) // 2])
    with pytest.raises(TableError):
        Table.from_bytes(b"not a table\n" + data)


def _rare_part(data: bytes) -> bytes:
    import zlib

    rest = data.split(b"\n", 1)[1]
    n = int.from_bytes(rest[:8], "little")
    return zlib.decompress(rest[8 + n:])


def _with_rare_part(data: bytes, rare: bytes) -> bytes:
    import zlib

    line, rest = data.split(b"\n", 1)
    n = int.from_bytes(rest[:8], "little")
    return line + b"\n" + rest[:8 + n] + zlib.compress(rare)


def test_the_file_is_little_endian_on_any_machine(endings, monkeypatch):
    import struct

    from canter.engine.search.endings import table as table_module

    table = endings.table(parse_material("camette-wMM-bK"))
    count = len(table.extra_keys)
    assert count > 2
    rare = _rare_part(table.to_bytes())
    assert list(struct.unpack(f"<{count}Q", rare[:8 * count])) == list(table.extra_keys)
    # A machine of the other byte order swaps on writing and again on reading: the
    # round trip holds and the 8-byte keys on disk are in the other order there.
    monkeypatch.setattr(table_module, "NATIVE_LITTLE", not table_module.NATIVE_LITTLE)
    foreign = table.to_bytes()
    assert _rare_part(foreign)[:8] == rare[:8][::-1]
    again = Table.from_bytes(foreign)
    assert list(again.extra_keys) == list(table.extra_keys)
    assert list(again.extra_values) == list(table.extra_values)


def test_rare_states_out_of_order_or_range_are_refused(endings):
    import struct

    table = endings.table(parse_material("camette-wMM-bK"))
    data = table.to_bytes()
    count = len(table.extra_keys)
    rare = _rare_part(data)
    keys = list(struct.unpack(f"<{count}Q", rare[:8 * count]))
    values = rare[8 * count:]
    swapped = keys[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    beyond = keys[:-1] + [len(table.base) * table.indexer.extra_states + 1]
    base_state = [keys[0] - keys[0] % table.indexer.extra_states] + keys[1:]
    for bad in (swapped, beyond, base_state):
        crafted = _with_rare_part(data, struct.pack(f"<{count}Q", *bad) + values)
        with pytest.raises(TableError, match="rare states are out of order or out of range"):
            Table.from_bytes(crafted)
    assert Table.from_bytes(_with_rare_part(data, rare)).key == table.key


def _with_header(data: bytes, **changes) -> bytes:
    import json

    line, rest = data.split(b"\n", 1)
    header = json.loads(line)
    header.update(changes)
    return json.dumps(header).encode() + b"\n" + rest


def test_a_file_is_refused_unless_it_holds_the_class_looked_for(endings):
    data = endings.table(parse_material("camette-wMM-bK")).to_bytes()
    assert Table.from_bytes(data, "camette-wMM-bK").key == "camette-wMM-bK"
    with pytest.raises(TableError, match="holds the table of camette-wMM-bK"):
        Table.from_bytes(data, "camette-wM-bMM")
    # Through the prober: the file saved under another class's name is not used.
    misfiled = Endings(load=lambda key: data if key == "camette-wM-bMM" else None,
                       available=["camette-wM-bMM"])
    assert misfiled.table(parse_material("camette-wM-bMM")) is None


def test_hostile_table_files_are_refused_in_one_line(endings):
    import zlib

    data = endings.table(parse_material("camette-wMM-bK")).to_bytes()
    line, rest = data.split(b"\n", 1)
    n = int.from_bytes(rest[:8], "little")
    # A small file whose base part inflates far past the class: refused, never inflated.
    bomb = zlib.compress(bytes(50_000_000), 9)
    with pytest.raises(TableError, match="not the .* bytes the class needs"):
        Table.from_bytes(line + b"\n" + len(bomb).to_bytes(8, "little") + bomb
                         + rest[8 + n:])
    for bad, needle in [
        (b"[" * 100_000 + b"\n" + rest, "no header line"),  # a header past any real one
        (b"[" * 3_000 + b"\n" + rest, "not a canter endings table"),  # nesting too deep
        (_with_header(data, stats="x"), "stats is not an object"),
        (_with_header(data, extras=-1), "is not a count"),
        (_with_header(data, width=3), "is not 1 or 2"),
    ]:
        with pytest.raises(TableError, match=needle) as err:
            Table.from_bytes(bad)
        assert "\n" not in str(err.value)


def _random_states(endings, keys, count, seed):
    """Positions of the classes `keys` (legal set-ups with two moves or more) whose table
    value is a win or loss within five plies, or a draw."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        m = parse_material(rng.choice(keys))
        ix = Indexer(m)
        placed = None
        for i, (_, p) in enumerate(ix.placements()):
            if rng.random() < 1 / (i + 1):
                placed = p
        pos = Position(m.variant)
        setup(pos, ix, placed, rng.choice(m.seats), 0,
              tuple(s for s in range(m.variant.nseats) if s not in m.seats))
        try:
            pos = Position.from_string(pos.to_string())
        except ValueError:
            continue  # a piece on a castle it may never enter
        if pos.outcome() is not None or pos.turn not in m.seats:
            continue
        if len(pos.legal_moves()) < 2:
            continue  # the search plays a lone move at once, without a score to compare
        got = endings.probe(pos)
        if got is not None and got[1] <= 5:
            out.append((pos, got))
    return out


def _search(pos, depth, tables=None):
    s = Searcher()
    s.tables = tables
    # The shipped Camette proof holds small endings too (inside its lines): it would take
    # moves off the root, and the search alone is what is compared here.
    s.use_proofs = False
    infos = []
    result = s.search(pos, Limits(depth=depth), infos.append, StopFlag())
    return result, infos[-1]


def test_a_probe_agrees_with_a_full_search_on_100_random_small_endings(endings):
    """Tables off, the search to one ply past the table's distance must find the same
    result at the same distance (a won or lost game: mate in N own moves; a draw: a score
    that is not a mate)."""
    states = _random_states(endings, SMALL, 80, seed=5)
    states += _random_states(endings, ["tri-camelot-bK-rM"], 20, seed=6)
    decided = 0
    for pos, (result, dist) in states:
        _, info = _search(pos, max(dist, 1) + 1)
        plies_per_round = pos.variant.nseats - len(pos.eliminated)  # seats in play
        if result == DRAW:
            assert info.score_win is None, pos.to_string()
            continue
        decided += 1
        own_moves = max(1, (dist + plies_per_round - 1) // plies_per_round)
        assert info.score_win == (own_moves if result == WIN else -own_moves), \
            (pos.to_string(), result, dist, info)
    assert decided >= 60


def test_the_search_probes_the_tables_and_reports_tbhits(endings):
    pos = Position.from_string("camette 1/3/2ww1/B4/5/3/1 b 0,0 - - 0 0")
    assert endings.probe(pos) == (LOSS, 4)
    result, info = _search(pos, 3, endings)
    assert info.tbhits and info.score_win == -2
    assert result.best is not None
    _, info = _search(pos, 3, None)
    assert info.tbhits is None
    # The start has eight pieces: no table holds it or anything two plies on.
    start = Position.start("camette")
    _, info = _search(start, 2, endings)
    assert info.tbhits is None


def test_best_moves_rank_the_shortest_win_first(endings):
    pos = Position.from_string("camette 1/1w1/5/5/1B3/3/1 w 0,0 - - 0 0")
    moves = endings.best_moves(pos)
    assert moves[0][1:] == (WIN, 1)
    assert all(r != WIN or d >= 1 for _, r, d in moves)
    assert [d for _, r, d in moves if r == WIN] == sorted(d for _, r, d in moves if r == WIN)


def test_a_ruling_the_game_never_consults_keeps_the_tables():
    shipped = Endings()  # Camette's shipped tables
    camette = Position.from_string("camette 1/1B1/5/5/5/1W1/1 w 0,0 - - 0 0")
    got = shipped.probe(camette)
    assert got is not None
    # No Move is never consulted in a two-player game: the table still answers ...
    idle = Position.from_string(camette.to_string(),
                                camette.rules.with_option("no_move", "pass"))
    assert shipped.probe(idle) == got
    # ... a ruling the game does consult leaves it out (it was built under the defaults).
    for name, value in (("exit_duty_persists", False), ("parker_1887", True)):
        other = Position.from_string(camette.to_string(),
                                     camette.rules.with_option(name, value))
        assert shipped.probe(other) is None, name


def test_material_of_needs_exactly_two_seats():
    assert material_of(Position.start("camette")).key == "camette-wKMMM-bKMMM"
    assert material_of(Position.start("tri-camelot")) is None


def test_cli_builds_probes_and_lists(tmp_path):
    runner = CliRunner()
    # Cam's one against one is not shipped: built here (about a second).
    out = runner.invoke(tables_command, ["build", "cam-wK-bM", "--dir", str(tmp_path),
                                         "--quiet"])
    assert out.exit_code == 0, out.output
    assert "cam-wK-bM: 9110 positions" in out.output
    assert (tmp_path / "cam-wK-bM.ctb").exists()
    out = runner.invoke(tables_command, ["build", "cam-wK-bM", "--dir", str(tmp_path)])
    assert "cam-wK-bM: exists" in out.output
    out = runner.invoke(tables_command, ["info", "--variant", "cam", "--dir", str(tmp_path)])
    assert out.exit_code == 0 and "cam-wK-bM" in out.output and "built" in out.output
    # White's Knight on D12 steps into Black's castle D13.
    out = runner.invoke(tables_command, ["probe", "--dir", str(tmp_path),
                                         "cam 1/1W1/5/7/7/7/7/7/7/b6/5/3/1 w 0,0 - - 0 0"])
    assert out.exit_code == 0, out.output
    assert "white to move: win in 1 plies" in out.output
    assert "D12-D13" in out.output
    out = runner.invoke(tables_command, ["probe", "--no-build", "--dir", str(tmp_path),
                                         "cam 1/1W1/5/7/7/7/7/7/b6/b6/5/3/1 w 0,0 - - 0 0"])
    assert out.exit_code != 0 and "cam-wK-bMM: no table" in out.output
    out = runner.invoke(tables_command, ["build", "camette-wQ-bM", "--dir", str(tmp_path)])
    assert out.exit_code != 0 and "CLASS" in out.output
    # The shipped tables are listed as such.
    out = runner.invoke(tables_command, ["info", "--variant", "camette", "--dir", str(tmp_path)])
    assert "camette-wK-bM" in out.output and "shipped" in out.output


CAMELOT_KK = "camelot 2/8/10/12/12/12/12/5B6/5W6/12/12/12/12/10/8/2 w 0,0 - - 0 0"


def test_cli_probe_says_what_is_wrong_with_its_folder_or_table(tmp_path):
    runner = CliRunner()
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n")
    out = runner.invoke(tables_command, ["probe", CAMELOT_KK, "--dir", str(notes / "sub")])
    assert out.exit_code == 2 and "notes.txt is a file, not a folder" in out.output
    # A folder where the table file goes: named, no traceback.
    (tmp_path / "d1" / "camelot-wK-bK.ctb").mkdir(parents=True)
    out = runner.invoke(tables_command, ["probe", CAMELOT_KK, "--dir", str(tmp_path / "d1")])
    assert out.exit_code == 1 and "camelot-wK-bK.ctb is not a table file, and " \
        "camelot-wK-bK would be written there" in out.output  # (before the build, now)
    assert not isinstance(out.exception, OSError)
    # A damaged table is said to be one (not "no table"); a file of another kind under a
    # table's name is never replaced by a build.
    (tmp_path / "d5").mkdir()
    (tmp_path / "d5" / "camelot-wK-bK.ctb").write_bytes(bytes(range(256)))
    out = runner.invoke(tables_command, ["probe", CAMELOT_KK, "--no-build", "--dir",
                                         str(tmp_path / "d5")])
    assert out.exit_code == 1
    assert "d5/camelot-wK-bK.ctb: not a canter endings table" in out.output
    for command in (["probe", CAMELOT_KK], ["build", "camelot-wK-bK", "--quiet"]):
        out = runner.invoke(tables_command, [*command, "--dir", str(tmp_path / "d5")])
        assert out.exit_code == 1 and "is not a table file, and camelot-wK-bK would be " \
            "written there; it is kept" in out.output
    assert (tmp_path / "d5" / "camelot-wK-bK.ctb").read_bytes() == bytes(range(256))


def test_cli_finds_a_file_in_the_way_of_any_class_to_build_before_building_any(tmp_path):
    """cam-wKM-bK needs cam-wK-bK and cam-wM-bK built first; a file of notes under the
    second's name stops the build before any class is built (it was found only when that
    class's build was done)."""
    (tmp_path / "cam-wM-bK.ctb").write_text("my notes\n")
    out = CliRunner().invoke(tables_command, ["build", "cam-wKM-bK", "--quiet", "--dir",
                                              str(tmp_path)])
    assert out.exit_code == 1, out.output
    assert "cam-wM-bK.ctb is not a table file, and cam-wM-bK would be written there" \
        in out.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cam-wM-bK.ctb"]
    assert (tmp_path / "cam-wM-bK.ctb").read_text() == "my notes\n"


def test_cli_probe_builds_only_a_small_plan_unless_told(tmp_path):
    """Eight Camette pieces: a probe's build would take days, so it says so and builds
    nothing; --no-build answers at once that there is no table."""
    full = "camette 1/1B1/1bbb1/5/1www1/2W/1 b 0,0 - - 0 1"
    out = CliRunner().invoke(tables_command, ["probe", full, "--dir", str(tmp_path)])
    assert out.exit_code == 1
    assert "camette-wKMMM-bKMMM has no table; building it means 25 classes" in out.output
    assert "days): give --build to go ahead, or --no-build" in out.output
    assert list(tmp_path.iterdir()) == []
    out = CliRunner().invoke(tables_command, ["probe", full, "--no-build", "--dir",
                                              str(tmp_path)])
    assert out.exit_code == 1 and "no table" in out.output
    # A damaged table under the class's name (its first line JSON) is no table: the plan
    # is the same, and nothing is built.
    stub = tmp_path / "camette-wKMMM-bKMMM.ctb"
    stub.write_text('{"version": 0}\nx\n')
    out = CliRunner().invoke(tables_command, ["probe", full, "--dir", str(tmp_path)])
    assert out.exit_code == 1 and "building it means 25 classes" in out.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [stub.name]


@pytest.mark.parametrize(("name", "needle"), [
    ("camette-wKK-bK", "'wKK': white starts a camette game with 1 Knight and 3 Men"),
    ("camette-wK-bMMMM", "'bMMMM': black starts a camette game with 1 Knight and 3 Men"),
    ("tri-camelot-bKKKK-rK", "'bKKKK': blue starts a tri-camelot game with 3 Knights and 5 Men"),
    ("camette-wK-bK-rK", "'camette-wK-bK-rK': a class names two sides after the game, "
                         "like camette-wKM-bK"),
    ("tri-camelot-bK-rK-gK", "like tri-camelot-bKM-rK"),
    # a game and one side: the side is missing ('camette' was blamed as a bad side)
    ("camette-wK", "'camette-wK': a class names two sides after the game, like "
                   "camette-wKM-bK"),
    ("Camette-foo", "a class names two sides after the game"),
])
def test_classes_that_cannot_be_are_refused(name, needle):
    with pytest.raises(MaterialError, match=re.escape(needle)):
        parse_material(name)


def test_cli_refuses_classes_beyond_eight_pieces_before_any_work(tmp_path):
    runner = CliRunner()
    big = "camelot-wKKKKMMMMMMMMMM-bKKKKMMMMMMMMMM"
    out = runner.invoke(tables_command, ["build", big, "--dir", str(tmp_path)])
    assert out.exit_code == 2 and f"{big} has 28 pieces; tables are built for at most 8" \
        in out.output
    start = Position.start("camelot").to_string()
    out = runner.invoke(tables_command, ["probe", start, "--dir", str(tmp_path)])
    assert out.exit_code == 1 and "has 28 pieces" in out.output
    assert list(tmp_path.iterdir()) == []  # nothing was built


def test_cli_says_in_one_line_what_is_wrong_with_a_folder_or_a_table(tmp_path):
    runner = CliRunner()
    afile = tmp_path / "afile"
    afile.write_text("x")
    out = runner.invoke(tables_command, ["build", "camette-wK-bK", "--force", "--quiet",
                                         "--dir", str(afile / "x")])
    assert out.exit_code == 2 and "is a file, not a folder" in out.output  # before the build
    assert not isinstance(out.exception, NotADirectoryError)
    # A header that is JSON but no object is a damaged table, not a crash.
    (tmp_path / "camette-wK-bK.ctb").write_bytes(b"[1]\n")
    out = runner.invoke(tables_command, ["info", "--variant", "camette", "--dir",
                                         str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert "camette-wK-bK: not a canter endings table (its header is no object)" in out.output
    # ... and so is one whose class is no name (the engine's search fell over it).
    (tmp_path / "camette-wK-bK.ctb").write_bytes(
        b'{"format": "canter-endings", "version": 1, "class": 5}\nxx\n')
    out = runner.invoke(tables_command, ["info", "--variant", "camette", "--dir",
                                         str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert "camette-wK-bK: damaged table: its class 5 is no class name" in out.output
    # A built table goes in whole, with no temporary file left beside it.
    out = runner.invoke(tables_command, ["build", "camette-wK-bK", "--force", "--quiet",
                                         "--dir", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "camette-wK-bK.ctb"]


def test_the_engine_reports_tbhits_and_usetables_turns_them_off(endings, tmp_path):
    for key, table in endings.tables.items():
        (tmp_path / f"{key}.ctb").write_bytes(table.to_bytes())
    lines = ["uci", f"setoption name TablePath value {tmp_path}",
             "setoption name UCI_Variant value camette",
             "position fen camette 1/3/2ww1/B4/5/3/1 b 0,0 - - 0 0", "go depth 2", "isready"]

    def run(extra):
        proc = subprocess.run([sys.executable, "-m", "canter"],
                              input="\n".join(lines[:2] + extra + lines[2:]) + "\n",
                              capture_output=True, text=True, timeout=60)
        return proc.stdout

    out = run([])
    assert "option name UseTables type check default true" in out
    assert "option name TablePath type string default <empty>" in out
    info = [x for x in out.splitlines() if x.startswith("info depth 2")][-1]
    assert " tbhits " in info and " score mate -2 " in info
    out = run(["setoption name UseTables value false"])
    info = [x for x in out.splitlines() if x.startswith("info depth 2")][-1]
    assert " tbhits " not in info


def test_a_pipe_in_a_tables_place_is_passed_over_not_read(tmp_path):
    # Reading a pipe that nobody writes would wait for ever: the shipped table is used.
    import os

    from canter.adapters.tables.store import Folder
    from canter.engine.search.endings import SUFFIX, shipped, shipped_keys

    key = shipped_keys()[0]
    os.mkfifo(tmp_path / (key + SUFFIX))
    folder = Folder(str(tmp_path))
    assert key in folder.keys()
    assert folder.load(key) == shipped(key) is not None


def test_cli_info_says_when_the_game_asked_for_has_no_table(tmp_path):
    out = CliRunner().invoke(tables_command, ["info", "--dir", str(tmp_path)])
    assert out.exit_code == 0
    lines = out.output.splitlines()
    assert lines[1].startswith("no camelot tables; ")
    assert "of other games: --variant NAME or --all lists them" in lines[1]
    shipped = CliRunner().invoke(tables_command, ["info", "--dir", str(tmp_path), "--variant",
                                                  "camette"])
    assert "camette-wK-bK " in shipped.output and "no camette tables" not in shipped.output


def test_cli_a_folder_only_read_must_exist(tmp_path):
    # A mistyped --dir listed no tables and exited 0, as if there were none.
    missing = str(tmp_path / "nosuch")
    for args in (["info", "--dir", missing],
                 ["probe", "--no-build", "--dir", missing,
                  "camette 1/1w1/5/5/1B3/3/1 w 0,0 - - 0 0"]):
        out = CliRunner().invoke(tables_command, args)
        assert out.exit_code == 2 and f"{missing}: no such folder" in out.output, out.output
    assert not (tmp_path / "nosuch").exists()


def test_cli_an_empty_folder_name_is_refused_not_taken_as_the_default(tmp_path, monkeypatch):
    # `--dir "$TB"` with TB unset built into the default folder, the engine's own.
    default = tmp_path / "default"
    monkeypatch.setenv("CANTER_TABLES", str(default))
    for args in (["build", "--force", "--quiet", "--dir", "", "camette-wK-bK"],
                 ["probe", "--dir", " ", "camette 1/1w1/5/5/1B3/3/1 w 0,0 - - 0 0"],
                 ["info", "--dir", ""]):
        out = CliRunner().invoke(tables_command, args)
        assert out.exit_code == 2 and "'--dir': is empty" in out.output, out.output
    assert not default.exists()


def test_cli_reads_shipped_tables_whatever_the_folder_when_nothing_is_built(tmp_path,
                                                                            monkeypatch):
    # Camette's tables are shipped: a probe and a build of one that exists need no folder
    # to write to, so one that cannot be written (here a file) is no error; it is named
    # as the table folder, not as a --dir never given, where a table is to be built.
    runner = CliRunner()
    afile = tmp_path / "afile"
    afile.write_text("x")
    monkeypatch.setenv("CANTER_TABLES", str(afile))
    out = runner.invoke(tables_command, ["probe", "camette 1/3/2ww1/B4/5/3/1 b 0,0 - - 0 0"])
    assert out.exit_code == 0 and "camette-wMM-bK: black to move: loss in 4 plies" \
        in out.output, out.output
    out = runner.invoke(tables_command, ["build", "camette-wK-bK"])
    assert out.exit_code == 0 and "camette-wK-bK: exists" in out.output, out.output
    out = runner.invoke(tables_command, ["build", "camette-wK-bK", "--force"])
    assert out.exit_code == 2 and "the table folder ($CANTER_TABLES" in out.output
    assert "afile is a file, not a folder" in out.output


def test_cli_probe_on_a_full_disk_is_one_error(tmp_path):
    # A damaged table of a class the moves lead to is built again during the probe; a file
    # size limit stands for a full disk.
    import resource

    (tmp_path / "camette-wK-bKM.ctb").write_text('{"class": "x"}\ngarbage\n')

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, resource.RLIM_INFINITY))

    done = subprocess.run([sys.executable, "-m", "canter", "tables", "probe",
                           "camette 1/B2/b4/1Wb2/5/3/1 w 0,0 - - 0 0", "--dir",
                           str(tmp_path)], capture_output=True, text=True, timeout=300,
                          preexec_fn=small_files)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "File too large" in done.stderr, done.stderr


def test_cli_probe_says_why_it_lists_no_moves(tmp_path):
    (tmp_path / "camette-wK-bKM.ctb").write_text('{"class": "x"}\ngarbage\n')
    out = CliRunner().invoke(tables_command, ["probe", "camette 1/B2/b4/1Wb2/5/3/1 w 0,0 - - 0 0",
                                              "--no-build", "--dir", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert out.output.splitlines()[1] == ("  (the moves are not listed: a class some of them "
                                          "lead to has no usable table; give --build)")


def test_cli_info_calls_a_table_built_only_when_its_file_is_one(tmp_path):
    # A folder under a table's name hides nothing: the shipped table is read, and so named.
    (tmp_path / "camette-wK-bK.ctb").mkdir()
    out = CliRunner().invoke(tables_command, ["info", "--variant", "camette", "--dir",
                                              str(tmp_path)])
    assert out.exit_code == 0, out.output
    [row] = [line for line in out.output.splitlines() if line.startswith("camette-wK-bK ")]
    assert row.split()[1] == "shipped", row
