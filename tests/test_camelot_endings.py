"""Camelot endings (RULES.md §1 End of the game), in their order."""

from builders import setup

from canter.engine import Position, Rules, get_variant, parse_move

V = get_variant("camelot")


def play(pos, *moves):
    for text in moves:
        pos.push(parse_move(pos, text))
    return pos


def test_two_pieces_in_the_opponents_castle_win():
    pos = play(setup(w="F16 G15 L8", b="A4 B4"), "G15-G16")
    out = pos.outcome()
    assert out.winner == 0
    assert out.text() == "white wins: two pieces in the black castle"
    assert out.ranking == ((0,), (1,))
    assert pos.legal_moves() == []


def test_one_piece_in_the_castle_is_not_yet_a_win():
    pos = play(setup(w="F15 L8", b="A4 B4"), "F15-F16")
    assert pos.outcome() is None


def test_capturing_the_last_piece_wins_with_two_pieces():
    pos = play(setup(w="D4 L8", b="D5"), "D4xD6")
    assert pos.outcome().text() == "white wins: black has no pieces left"


def test_capturing_the_last_piece_with_one_piece_left_is_a_draw():
    pos = play(setup(w="D4", b="D5 D7"), "D4xD6xD8")
    out = pos.outcome()
    assert out.winner is None
    assert "too few pieces" in out.reason
    assert out.ranking == ((0, 1),)


def test_one_piece_each_is_a_draw():
    pos = play(setup(w="D4", b="D5 L13"), "D4xD6")
    assert pos.outcome().text() == "draw: each side has at most one piece"


def test_two_against_one_goes_on():
    pos = play(setup(w="D4 L8", b="D5 L13"), "D4xD6")
    assert pos.outcome() is None


def test_no_legal_move_loses_for_the_side_to_move():
    # Black A4 is walled in by white pieces that cannot be jumped.
    pos = setup(turn="b", w="A5 B5 B4 B3 A6 C6 C4 C2 L8", b="A4")
    assert pos.legal_moves() == []
    assert pos.outcome().text() == "white wins: black has no legal move"
    # `no_move=pass` is the three- and four-seat games' option: in Camelot the stuck side
    # still loses (it neither passed nor lost: the game stood with no move).
    stuck = setup(turn="b", w="A5 B5 B4 B3 A6 C6 C4 C2 L8", b="A4",
                  rules=Rules(no_move="pass"))
    assert stuck.rules.no_move == "pass"
    assert stuck.outcome().text() == "white wins: black has no legal move"


def test_third_repetition_draws_automatically():
    pos = setup(w="A8 L8", b="A12 L12")
    shuffle = ["A8-A9", "A12-A13", "A9-A8", "A13-A12"]
    play(pos, *shuffle)
    assert pos.repetitions() == 2 and pos.outcome() is None
    play(pos, *shuffle)
    assert pos.outcome().text() == "draw: third repetition"


def test_third_repetition_under_claim_only():
    rules = Rules.for_variant(V).with_option("repetition", "claim")
    pos = setup(w="A8 L8", b="A12 L12", rules=rules)
    shuffle = ["A8-A9", "A12-A13", "A9-A8", "A13-A12"]
    play(pos, *shuffle, *shuffle)
    assert pos.outcome() is None
    assert pos.can_claim_draw()


def test_castle_moves_used_change_the_repeated_position():
    pos = setup(w="F16 L8", b="A12 L12")
    play(pos, "F16-G16", "A12-A13", "G16-F16", "A13-A12")
    assert pos.repetitions() == 1


def test_hundred_quiet_plies_draw():
    s = "camelot 2/8/10/12/b11/12/12/12/12/12/12/w10w/12/10/8/2 w 0,0 - - 99 99"
    pos = Position.from_string(s)
    assert pos.outcome() is None
    play(pos, "A5-A6")
    assert pos.outcome().text() == "draw: 100 plies without capture or castle entry"


def test_castle_entry_resets_the_quiet_count():
    entered = setup(w="F15 L8", b="A4 B4")
    entered.quiet = entered.ply = 99
    play(entered, "F15-F16")
    assert entered.quiet == 0 and entered.outcome() is None
    stepped = setup(w="F15 L8", b="A4 B4")
    stepped.quiet = stepped.ply = 99
    play(stepped, "F15-E15")
    assert stepped.outcome().text() == "draw: 100 plies without capture or castle entry"


def test_rulings_built_directly_are_held_to_the_values_with_option_allows():
    """`Rules(...)` refuses what `with_option` refuses: a misspelt choice or a negative
    limit would otherwise referee another game (a draw at move 0 for quiet_limit=-5)."""
    import pytest

    for fields, needle in (({"quiet_limit": -5}, "quiet_limit must be a whole number"),
                           ({"quiet_limit": 1.5}, "quiet_limit"),
                           ({"repetition": "bogus"}, "repetition must be one of auto, claim"),
                           ({"no_move": "bogus"}, "no_move must be one of lose, pass"),
                           ({"side_castles": "x"}, "side_castles must be one of closed, own"),
                           ({"parker_1887": 1}, "parker_1887 must be True or False")):
        with pytest.raises(ValueError, match=needle):
            Rules(**fields)
    assert Rules(quiet_limit=0).quiet_limit == 0  # off
    assert Position.start("camelot", Rules(quiet_limit=0)).outcome() is None


def test_rulings_left_out_of_rules_are_the_games_own():
    """The quiet limit and the ruling on a seat with no move differ by game (150 plies and
    passing in Tri-Camelot, 200 plies in Grand Cam): a `Rules` that sets another ruling
    leaves them to the game, and does not bring Camelot's into it."""
    for game, limit, no_move in (("camelot", 100, "lose"), ("tri-camelot", 150, "pass"),
                                 ("grand-cam", 200, "lose")):
        rules = Position.start(game, Rules(repetition="claim")).rules
        assert (rules.repetition, rules.quiet_limit, rules.no_move) == ("claim", limit,
                                                                        no_move)
        assert rules == get_variant(game).default_rules.with_option("repetition", "claim")
        # set by option on a bare Rules, the other ruling is still the game's
        mine = Position.start(game, Rules().with_option("quiet_limit", "40")).rules
        assert (mine.quiet_limit, mine.no_move) == (40, no_move)
    tri = get_variant("tri-camelot")
    assert Rules().idle_in(tri) == {} and Rules().as_played_in(tri) == tri.default_rules


def test_no_repetition_claim_when_repetitions_are_off():
    rules = Rules.for_variant(V).with_option("repetition", "off")
    pos = setup(w="A8 L8", b="A12 L12", rules=rules)
    shuffle = ["A8-A9", "A12-A13", "A9-A8", "A13-A12"]
    play(pos, *shuffle, *shuffle)
    assert pos.repetitions() == 3 and pos.outcome() is None
    assert not pos.can_claim_draw()
