"""Cam, Camette and Chivalry through the layers that follow the data: position strings,
notation, the text board, SVG pictures and game records."""

import random
import xml.etree.ElementTree as ET

import pytest
from builders import setup

from canter.adapters.pictures.svg import board_svg
from canter.adapters.records.format import (
    SEAT_TAGS,
    VARIANT_TAGS,
    GameRecord,
    read_games,
    replay_game,
    result_from_ranking,
    write_game,
)
from canter.engine import (
    VARIANT_NAMES,
    NotationError,
    Position,
    PositionError,
    format_move,
    get_variant,
    parse_move,
)
from canter.engine.rules.textboard import render

NEW = ("cam", "camette", "chivalry")

# Written out by hand from the starts (highest rank first, runs of empty cells as numbers).
START_STRINGS = {
    "cam": "cam 1/3/5/2B1B2/1bbbbb1/7/7/7/1wwwww1/2W1W2/5/3/1 w 0,0 - - 0 0",
    "camette": "camette 1/1B1/1bbb1/5/1www1/1W1/1 w 0,0 - - 0 0",
    "chivalry": "chivalry 2/8/10/12/14/2BBbbbbbbBB2/2BBbbbbbbBB2/14/14/2WWwwwwwwWW2/"
                "2WWwwwwwwWW2/14/12/10/8/2 w 0,0 - - 0 0",
}


@pytest.mark.parametrize("variant", NEW)
def test_start_strings(variant):
    assert Position.start(variant).to_string() == START_STRINGS[variant]
    assert Position.from_string(START_STRINGS[variant]).hash == Position.start(variant).hash


@pytest.mark.parametrize("text, words", [
    ("cam 1/3/5/2B1B3/1bbbbb1/7/7/7/1wwwww1/2W1W2/5/3/1 w 0,0 - - 0 0", "rank 10 has 7 cells"),
    ("camette 1/1B1/1bbb1/5/1www1/1W1 w 0,0 - - 0 0", "camette has 7 ranks"),
    ("cam 1/3/5/2B1B2/1bbbbb1/7/7/7/1wwwww1/2W1W2/5/3/1 w 0,0,0 - - 0 0",
     "expected 2 whole numbers"),
])
def test_bad_strings_say_what_is_wrong(text, words):
    with pytest.raises(PositionError, match=words):
        Position.from_string(text)


def test_a_won_game_string_stays_won():
    # White stands on Cam's black castle: the string describes a finished game.
    pos = Position.from_string("cam w/3/5/7/7/7/7/7/7/7/5/3/b b 0,0 - - 3 9")
    assert pos.outcome().text() == "white wins: a piece in the black castle"


@pytest.mark.parametrize("variant", NEW)
def test_random_games_round_trip_notation_and_strings(variant):
    rng = random.Random(f"io-{variant}")
    moves_seen = 0
    while moves_seen < 1000:
        pos = Position.start(variant)
        while pos.outcome() is None and pos.ply < 60:
            moves = pos.legal_moves()
            for move in rng.sample(moves, min(len(moves), 20)):
                text = format_move(pos.variant, move)
                assert parse_move(pos, text) == move
                assert parse_move(pos, text.lower()) == move
                moves_seen += 1
            pos.push(rng.choice(moves))
            again = Position.from_string(pos.to_string())
            assert again.to_string() == pos.to_string() and again.hash == pos.hash


def test_chivalry_notation_reaches_file_n():
    pos = setup("chivalry", w="KL10 M11 A8", b="N5 N6")
    move = parse_move(pos, "l10-n12")
    assert format_move(pos.variant, move) == "L10-N12"
    with pytest.raises(NotationError, match="O5"):
        parse_move(pos, "N5-O5")


def test_cells_off_the_small_boards_are_refused():
    pos = Position.start("camette")
    with pytest.raises(NotationError, match="F3"):
        parse_move(pos, "E3-F3")
    with pytest.raises(NotationError, match="A2"):
        parse_move(pos, "B3-A2")  # rank 2 of Camette is B-D


@pytest.mark.parametrize("variant, cells, pieces, castles", [
    ("cam", 67, 14, ["D1", "D13"]),
    ("camette", 23, 8, ["C1", "C7"]),
    ("chivalry", 176, 40, ["G1", "G16", "H1", "H16"]),
])
def test_svg_draws_every_cell_and_piece(variant, cells, pieces, castles):
    root = ET.fromstring(board_svg(Position.start(variant)))
    drawn = [el for el in root.iter() if "cell" in el.get("class", "").split()]
    assert len({el.get("data-cell") for el in drawn}) == len(drawn) == cells
    assert sorted(el.get("data-cell") for el in drawn
                  if "castle" in el.get("class", "").split()) == castles
    assert sum("piece" in el.get("class", "").split() for el in root.iter()) == pieces


def test_text_board_of_camette():
    assert render(Position.start("camette")) == """\
   A  B  C  D  E
7       [.]       7
6     .  B  .     6
5  .  b  b  b  .  5
4  .  .  .  .  .  4
3  .  w  w  w  .  3
2     .  W  .     2
1       [.]       1
   A  B  C  D  E
pieces: white w/W  black b/B (man/knight)
castles [ ]: white C1  black C7
white to move"""


def test_records_know_every_game():
    assert set(VARIANT_TAGS) == set(SEAT_TAGS) == set(VARIANT_NAMES)
    for name in VARIANT_NAMES:
        v = get_variant(name)
        assert SEAT_TAGS[name] == tuple(s.name.title() for s in v.seats)


@pytest.mark.parametrize("variant, tag", [("cam", "Cam"), ("camette", "Camette"),
                                          ("chivalry", "Chivalry")])
def test_a_record_of_each_game_replays(variant, tag):
    rng = random.Random(variant)
    pos = Position.start(variant)
    game = GameRecord.new(variant, ["a", "b"])
    while pos.outcome() is None and pos.ply < 200:
        move = rng.choice(pos.legal_moves())
        game.add_move(format_move(pos.variant, move))
        pos.push(move)
    out = pos.outcome()
    game.set_result(result_from_ranking(out.ranking if out else None, 2))
    text = write_game(game)
    assert f'[Variant "{tag}"]' in text and '[White "a"]' in text
    (back,) = read_games(text)
    assert back.variant == variant
    result = replay_game(back)
    assert result.error is None and result.final_position == pos.to_string()


def test_moves_on_file_n_pass_the_client_and_the_record_reader():
    from canter.adapters.client.parse import parse_bestmove, parse_info

    info = parse_info("info depth 1 seldepth 1 score cp 10 nodes 9 pv N5xN7 B12-B11")
    assert info.pv == ["N5xN7", "B12-B11"]
    assert parse_bestmove("bestmove L10-N12") == ("L10-N12", None)
    text = ('[Variant "Chivalry"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n'
            '[SetUp "1"]\n[Position "chivalry 2/8/10/12/1b12/14/14/14/w13/14/13b/13w/12/10/8/2'
            ' w 0,0 - - 0 0"]\n\n1. N5xN7 *\n')
    (game,) = read_games(text)
    assert game.moves == ["N5xN7"]
    assert replay_game(game).error is None


def test_a_record_keeps_the_parker_1887_option():
    rules = get_variant("chivalry").default_rules.with_option("parker_1887", True)
    position = "chivalry 2/8/10/12/13b/14/14/14/11w2/14/14/3b10/2w9/10/8/2 w 0,0 - - 0 0"
    game = GameRecord.new("chivalry", ["a", "b"], position=position, rules=rules)
    game.add_move("D4xD6")
    game.set_result("1-0")
    text = write_game(game)
    assert '[Rules "parker_1887=true"]' in text
    (back,) = read_games(text)
    result = replay_game(back)
    assert result.error is None and result.rules_result == "1-0"
    # Without the option the same move leaves two against one: by the rules the game goes
    # on (a 1-0 could only be an adjudication or a resignation).
    plain = GameRecord.new("chivalry", ["a", "b"], position=position)
    plain.add_move("D4xD6")
    plain.set_result("1-0")
    assert replay_game(plain).rules_result is None


@pytest.mark.parametrize("variant", NEW)
def test_html_page_has_a_frame_per_ply(variant):
    from canter.adapters.pictures.html import game_html

    start = Position.start(variant)
    pos, moves = start.copy(), []
    rng = random.Random(variant)
    for _ in range(6):
        move = rng.choice(pos.legal_moves())
        moves.append(move)
        pos.push(move)
    page = game_html(start, moves, title=variant)
    assert page.count('<div class="frame"') == 7
    assert format_move(start.variant, moves[0]) in page
    cells = len(start.variant.cells)
    assert page.count('class="cell') >= 7 * cells
