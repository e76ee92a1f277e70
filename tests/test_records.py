"""Game records: writer, reader (tolerance and errors), replay with the rules, `canter replay`."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from canter.adapters.records.cli import replay
from canter.adapters.records.format import (
    GameRecord,
    MoveComment,
    RecordError,
    parse_result,
    read_games,
    replay_game,
    result_from_ranking,
    result_token,
    write_game,
)

# WCF World Championship 2009, game 1, first 11 moves (RULES.md section 5), in the
# spelling of the rules page (move numbers glued to moves).
WCF_2009 = """\
[Event "WCF World Championship"]
[Date "2009.??.??"]
[Round "1"]
[Variant "Camelot"]
[White "Troyka"]
[Black "Nolan"]
[Result "*"]

1.D6-F8 H11-F9 2.C6-E8-G8 J11-H11 3.H6-H8 E11-G9 4.J6-H6 C11-E11 5.I6-I8 D11-D9
6.I8-J9 D10-D8xD6 7.E6xC6 I10xK8 8.E7-G5 G9xE7 9.F6xD8xD10xF12 F11xF13
10.H6-J8xL8 G11-G9 11.G6-I8 I11-G11 *
"""

# White men on F16 and G15 (one step from a second piece in the black castle), black men on
# A8 and A7.
NEAR_WIN = "camelot w1/4w3/10/12/12/12/12/12/b11/b11/12/12/12/10/8/2 w 0,0 - - 0 0"


def test_result_tokens():
    assert parse_result("1-0", 2) == (1, 0)
    assert parse_result("1/2-1/2", 2) == (Fraction(1, 2), Fraction(1, 2))
    assert parse_result("0-1-0", 3) == (0, 1, 0)
    assert parse_result("1/3-1/3-1/3", 3) == (Fraction(1, 3),) * 3
    assert parse_result("0-1/2-1/2", 3) == (0, Fraction(1, 2), Fraction(1, 2))
    assert parse_result("*", 3) is None
    for bad, seats in (("1-0", 3), ("1-1", 2), ("1/2-0", 2), ("a-b", 2), ("2-0-0", 3)):
        with pytest.raises(ValueError):
            parse_result(bad, seats)
    assert result_token((Fraction(1, 3),) * 3) == "1/3-1/3-1/3"
    assert result_token(None) == "*"
    assert result_from_ranking([[2], [0, 1]], 3) == "0-0-1"
    assert result_from_ranking([[0, 1], [2]], 3) == "1/2-1/2-0"
    assert result_from_ranking([[0, 1]], 2) == "1/2-1/2"


def test_move_comment_forms():
    c = MoveComment.parse("+0.34/12 1.25s book move")
    assert (c.score, c.depth, c.time, c.text) == ("+0.34", 12, 1.25, "book move")
    c = MoveComment.parse("#-3/7")
    assert (c.score, c.depth, c.time) == ("#-3", 7, None)
    c = MoveComment.parse("just words")
    assert c.score is None and c.text == "just words"
    assert MoveComment("+1.00", 3, 0.5).render() == "+1.00/3 0.5s"
    assert MoveComment("#2", 4, 2.0).render() == "#2/4 2s"
    # a time that is no time is left out: written, `nans` or `-1s` would read back as text
    for bad in (float("nan"), -1.0, float("inf")):
        assert MoveComment("+1.00", 3, bad).render() == "+1.00/3"
    # A depth longer than any search's is text, not a crash (int() refuses 4,300 digits).
    long_depth = "+0.10/" + "9" * 5000 + " note"
    c = MoveComment.parse(long_depth)
    assert c.score is None and c.depth is None and c.text == long_depth
    assert MoveComment.parse("+0.10/123456789").depth == 123456789


def test_a_move_with_a_time_and_no_score_gets_no_empty_comment():
    # (a person's or a book move timed at 0.0 s: the format carries a time after a score)
    game = GameRecord.new("camelot", ["a", "b"])
    game.add_move("C6-C7", time=0.0)
    game.add_move("C11-C12", score="+0.10", depth=1, time=0.0)
    game.set_result("*")
    text = write_game(game)
    assert "{}" not in text and "1. C6-C7 C11-C12 {+0.10/1 0s}" in text, text
    assert [c is None for c in read_games(text).__next__().comments] == [True, False]


def test_write_then_read_camelot():
    game = GameRecord.new(
        "camelot", ["canter 0.1", 'the "other"'], event="t", round="3", time_control="40/60+0.5"
    )
    game.add_move("D6-F8", score="+0.12", depth=5, time=0.53)
    game.add_move("H11-F9")
    game.add_move("C6-E8-G8", text="a canter")
    game.set_result("1/2-1/2", termination="adjudication", reason="draw by score")
    text = write_game(game)
    lines = text.splitlines()
    assert lines[:9] == [
        '[Event "t"]',
        '[Site "?"]',
        '[Date "????.??.??"]',
        '[Round "3"]',
        '[Variant "Camelot"]',
        '[White "canter 0.1"]',
        '[Black "the \\"other\\""]',
        '[Result "1/2-1/2"]',
        '[TimeControl "40/60+0.5"]',
    ]
    assert "1. D6-F8 {+0.12/5 0.53s} H11-F9 2. C6-E8-G8 {a canter} 1/2-1/2" in text
    (back,) = read_games(text)
    assert back.tags == game.tags
    assert back.players == ["canter 0.1", 'the "other"']
    assert back.moves == game.moves and back.result == "1/2-1/2"
    assert back.comments[0] == MoveComment("+0.12", 5, 0.53, "")
    assert back.comments[1] is None and back.comments[2] == MoveComment(text="a canter")
    assert write_game(back) == text


def test_write_tri_camelot_numbers_and_setup():
    game = GameRecord.new("tri-camelot", ["a", "b", "c"], position="tri-camelot X r 0 - - 0 4")
    for move in ("B11-B9", "J11-J9", "F7-F9", "B9-B7"):
        game.add_move(move)
    game.set_result("0-0-1")
    text = write_game(game)
    # red to move at ply 4: round 2 begins with red; a new number when blue moves again
    assert "2... B11-B9 J11-J9 3. F7-F9 B9-B7 0-0-1" in text
    assert '[Blue "a"]\n[Red "b"]\n[Green "c"]' in text
    assert '[SetUp "1"]' in text and '[Position "tri-camelot X r 0 - - 0 4"]' in text
    (back,) = read_games(text)
    assert back.variant == "tri-camelot" and back.points == (0, 0, 1)
    assert back.start_position == "tri-camelot X r 0 - - 0 4"


def test_reader_is_tolerant():
    text = (
        "% an escape line\r\n"
        "; a comment line\r\n"
        '[Event "x"] [Result "1-0"]\r\n'
        "\r\n"
        "{opening remark} 1. D6-F8 $1 {+0.10/2\r\n"
        "  spread over lines} 1... H11-F9 ; rest of line ignored\r\n"
        "2.C6-E8-G8\t\t1-0\r\n"
        "\n\n"
        "d6-f8 0-1\n"  # a game with no tags at all, lower case
    )
    first, second = read_games(text)
    assert first.tags == {"Event": "x", "Result": "1-0"}
    assert first.preamble == "opening remark"
    assert first.moves == ["D6-F8", "H11-F9", "C6-E8-G8"]
    assert first.comments[0] == MoveComment("+0.10", 2, None, "spread over lines")
    assert first.move_lines == [5, 6, 7]
    assert second.moves == ["d6-f8"] and second.result == "0-1" and second.line == 10


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('[Event "x"\n1. D6-F8 1-0\n', 1, "malformed tag"),
        ('[Event "x"]\n\n1. D6-F8 hello 1-0\n', 3, "'hello' is neither"),
        ('[Event "x"]\n\n1. D6-F8 {never closed\n1-0\n', 3, "never closed"),
        ('[Event "x"]\n\n1. D6-F8 (1. C6-C7) 1-0\n', 3, "variations"),
        ('[Result "1-0"]\n\n1. D6-F8 0-1\n', 3, "differs from the Result tag"),
        ('[Variant "Tri-Camelot"]\n\nF7-F9 1-0\n', 3, "does not have 3 parts"),
        ('[Event "x"]\n[Event "y"]\n', 2, "appears twice"),
        ('[Variant "Chess"]\n\nD6-F8 1-0\n', 1, "unknown Variant"),
        ('[Event "x"]\n\n1. D6-F8\n[Event "y"]\n', 4, "tag pair inside movetext"),
    ],
)
def test_reader_errors_name_the_line(text, line, words):
    with pytest.raises(RecordError) as info:
        list(read_games(text))
    assert info.value.line == line and words in str(info.value)
    assert str(info.value).startswith("game ")


def test_unterminated_last_game():
    text = '[Result "1-0"]\n\nD6-F8 1-0\n\n[Event "cut"]\n\n1. D6-F8 H11-'
    with pytest.raises(RecordError) as info:
        list(read_games(text + "F9"))
    assert info.value.game == 2 and "no result token" in str(info.value)
    games = list(read_games(text + "F9\n", allow_unterminated=True))
    assert [g.result for g in games] == ["1-0", "*"] and games[1].moves == ["D6-F8", "H11-F9"]
    # with not even a line end after it, the last move may be cut (H11-F9 of H11-F9-H9)
    games = list(read_games(text + "F9", allow_unterminated=True))
    assert [g.result for g in games] == ["1-0", "*"] and games[1].moves == ["D6-F8"]


def test_replay_wcf_2009_reaches_the_stated_position():
    from canter.engine import Position, get_variant

    (game,) = read_games(WCF_2009)
    result = replay_game(game)
    assert result.error is None and result.outcome is None
    pos = Position.from_string(result.final_position)
    v = get_variant("camelot")
    assert v.seats[pos.turn].name == "white"
    # RULES.md section 5: the position after 11...I11-G11
    expected = {
        "white": {"knight": "G8 I7 L8", "man": "C6 F7 G5 G7 H7 H8 I8"},
        "black": {"knight": "H11", "man": "E10 F9 F10 F13 G9 G10 G11 H10"},
    }
    seen = {}
    for cell in v.cells:
        piece = pos.piece_at(cell)
        if piece is not None:
            seat, kind = piece
            seen.setdefault(v.seats[seat].name, {}).setdefault(kind, []).append(v.cell_name(cell))
    for seat, kinds in expected.items():
        for kind, cells in kinds.items():
            assert sorted(seen[seat][kind]) == sorted(cells.split())
    assert sum(len(c) for k in seen.values() for c in k.values()) == 19


def test_replay_reports_illegal_move_with_ply():
    text = WCF_2009.replace("2.C6-E8-G8", "2.C6-E8-G10")
    (game,) = read_games(text)
    result = replay_game(game)
    assert result.error is not None
    ply, move, reason = result.error
    assert (ply, move) == (3, "C6-E8-G10") and reason.startswith("illegal")
    # the position before the bad move is reported
    assert result.final_position is not None and result.final_position.endswith(" 2 2")


def test_replay_checks_moves_after_the_end_and_the_result():
    setup = f'[Variant "Camelot"]\n[SetUp "1"]\n[Position "{NEAR_WIN}"]\n'
    (won,) = read_games(setup + "\n1. G15-G16 1-0\n")
    result = replay_game(won)
    assert result.error is None and result.rules_result == "1-0"
    assert result.outcome == "white wins: two pieces in the black castle"
    (wrong,) = read_games(setup + "\n1. G15-G16 0-1\n")
    assert replay_game(wrong).error == (
        0,
        "0-1",
        "the rules give 1-0 (white wins: two pieces in the black castle)",
    )
    (too_long,) = read_games(setup + "\n1. G15-G16 A8-A9 1-0\n")
    ply, move, reason = replay_game(too_long).error
    assert (ply, move) == (2, "A8-A9") and "already over" in reason
    (bad_setup,) = read_games('[Position "camelot nonsense"]\n\n*\n')
    assert "bad start position" in replay_game(bad_setup).error[2]


def _random_game(variant_name: str, choices: list[int]) -> tuple[GameRecord, str]:
    from canter.engine import Position, format_move, get_variant

    v = get_variant(variant_name)
    pos = Position.start(v)
    seats = len(v.seats)
    game = GameRecord.new(variant_name, [f"p{i}" for i in range(seats)])
    for pick in choices:
        moves = pos.legal_moves()
        if not moves:
            break
        move = moves[pick % len(moves)]
        game.add_move(format_move(v, move), score="+0.01", depth=1)
        pos.push(move)
    outcome = pos.outcome()
    game.set_result(result_from_ranking(outcome.ranking if outcome else None, seats))
    return game, pos.to_string()


@settings(max_examples=15, deadline=None)
@given(
    st.sampled_from(["camelot", "tri-camelot", "cam", "camette", "chivalry"]),
    st.lists(st.integers(0, 10_000), min_size=0, max_size=14),
)
def test_random_games_round_trip_and_replay(variant_name, choices):
    game, final = _random_game(variant_name, choices)
    text = write_game(game)
    (back,) = read_games(text)
    assert back.moves == game.moves and back.result == game.result
    result = replay_game(back)
    assert result.error is None and result.final_position == final


def test_replay_command(tmp_path):
    good = tmp_path / "good.cgr"
    good.write_text(WCF_2009 + "\n" + f'[SetUp "1"]\n[Position "{NEAR_WIN}"]\n\nG15-G16 1-0\n')
    out = CliRunner().invoke(replay, [str(good)])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0].startswith("game 1: camelot ") and lines[0].endswith(" w 0,0 - - 3 22 result *")
    assert lines[1].endswith("result 1-0 (white wins: two pieces in the black castle)")
    assert "2 games, 0 invalid" in out.stderr

    bad = tmp_path / "bad.cgr"
    bad.write_text(WCF_2009 + "\n" + WCF_2009.replace("6.I8-J9", "6.I8-J10"))
    out = CliRunner().invoke(replay, [str(bad)])
    assert out.exit_code == 1
    assert "game 2: INVALID at ply 11 (line 22), move I8-J10: illegal" in out.stderr  # 11 + 1 + 10

    broken = tmp_path / "broken.cgr"
    broken.write_text(WCF_2009 + '\n[Event "x"]\n\n1. D6-F8 zzz *\n')
    out = CliRunner().invoke(replay, [str(broken)])
    assert out.exit_code == 2
    assert "game 1:" in out.stdout
    assert "cannot read: game 2, line 15: 'zzz' is neither" in out.stderr


def test_replay_through_the_real_command_line(tmp_path):
    path = tmp_path / "g.cgr"
    path.write_text(WCF_2009)
    done = subprocess.run(
        [sys.executable, "-m", "canter", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("game 1: camelot ")


def test_rules_tag_written_and_applied():
    import dataclasses

    from canter.engine import Rules, get_variant

    default = Rules.for_variant(get_variant("camelot"))
    assert "Rules" not in GameRecord.new("camelot", ["a", "b"], rules=default).tags
    short = dataclasses.replace(default, quiet_limit=2, repetition="claim")
    game = GameRecord.new("camelot", ["a", "b"], rules=short)
    assert game.tags["Rules"] == "repetition=claim quiet_limit=2"
    (back,) = read_games(write_game(game))
    assert back.rule_overrides == {"repetition": "claim", "quiet_limit": 2}
    # two quiet plies end the game under these rules: a third move comes too late
    for move in ("D6-F8", "H11-F9", "C6-E8-G8"):
        back.moves.append(move)
    ply, move, reason = replay_game(back).error
    assert (ply, move) == (3, "C6-E8-G8") and "already over" in reason
    back.tags["Rules"] = "nonsense=1"
    assert "bad Rules tag" in replay_game(back).error[2]
    # a Rules built directly leaves the quiet limit and the no-move ruling to the game:
    # only what it sets is written, and the record replays
    for variant in ("camelot", "tri-camelot"):
        game = GameRecord.new(variant, ["a", "b", "c"][:get_variant(variant).nseats],
                              rules=Rules(repetition="claim"))
        assert game.tags["Rules"] == "repetition=claim"
        (back,) = read_games(write_game(game))
        assert replay_game(back).error is None


def test_read_games_skips_a_byte_order_mark_and_quotes_at_most_40_characters():
    text = '\ufeff[Event "x"]\n[Variant "Camelot"]\n\n1. C6-B5 *\n'
    (game,) = read_games(text)
    assert game.tags["Event"] == "x" and game.moves == ["C6-B5"]
    for huge in ("[" + "x" * 100_000, "1. " + "Q" * 100_000 + " *"):
        with pytest.raises(RecordError) as err:
            list(read_games(huge))
        assert len(str(err.value)) < 150 and "...'" in str(err.value)


def test_a_game_cut_off_at_the_end_of_the_text_drops_what_may_be_cut():
    base = '[Event "x"]\n[Variant "Camelot"]\n\n1. C6-B5 L11-K10 2. '
    # The text ends in a move, not even a line end after it: the writer may have been cut
    # off inside it (C6-E8 of C6-E8-G8), so it is left out; after a line end it is whole.
    for tail, moves in (("C6-E8", 2), ("C6-E8\n", 3), ("{a comm", 2), ("1/2-1", 2)):
        (game,) = read_games(base + tail, allow_unterminated=True)
        assert game.result == "*" and len(game.moves) == moves, tail
    (game,) = read_games(base + "1-0", allow_unterminated=True)  # a whole result stands
    assert game.result == "1-0"


def test_the_writer_refuses_a_game_the_reader_would_refuse():
    # Records are appended: one the reader cannot read would make the rest of its file
    # unreadable too.
    bad_tag = GameRecord.new("camelot", ["a", "b"], **{"My-Tag": "x"})
    spaced = GameRecord.new("camelot", ["a", "b"])
    spaced.add_move("D6 F8")
    three = GameRecord.new("camelot", ["a", "b"])
    three.result = "1-0-0"
    unknown = GameRecord.new("camelot", ["a", "b"])
    unknown.tags["Variant"] = "Camelot 2"
    for game, needle in ((bad_tag, "tag name 'My-Tag'"), (spaced, "move 'D6 F8'"),
                         (three, "does not have 2 parts"),
                         (unknown, "unknown Variant 'Camelot 2'")):
        with pytest.raises(ValueError, match=needle):
            write_game(game)
    fine = GameRecord.new("camelot", ["a", "b"], Annotator="x")
    fine.add_move("d6f8")
    (back,) = read_games(write_game(fine))
    assert back.moves == ["d6f8"] and back.tags["Annotator"] == "x"


def test_tag_values_unescape_quote_and_backslash_only():
    (game,) = read_games('[Event "a \\q \\" \\\\ z"]\n[Variant "Camelot"]\n\n*\n')
    assert game.tags["Event"] == 'a \\q " \\ z'  # the unknown escape \q kept as written
    written = GameRecord.new("camelot", ["a", "b"], event='x\\q "y"')
    (back,) = read_games(write_game(written))
    assert back.tags["Event"] == 'x\\q "y"'


def test_a_record_cut_off_inside_a_move_says_so():
    from canter.adapters.records import RecordError, read_games

    text = '[Event "x"]\n[Variant "Camelot"]\n\n1. C6-B5 L11-K10 2. D6-E'
    with pytest.raises(RecordError) as err:
        list(read_games(text))
    assert "cut off inside a move" in str(err.value) and "'D6-E'" in str(err.value)
    with pytest.raises(RecordError) as err:  # a bad word with more after it is not a cut
        list(read_games(text + " Q9 *\n"))
    assert "neither a move" in str(err.value)
    # nor one a comment follows, though the comment ends with the same word
    with pytest.raises(RecordError) as err:
        list(read_games(text + " C11-B10 *\n; after D6-E\n"))
    assert "neither a move" in str(err.value) and "'D6-E'" in str(err.value)


def test_a_comment_before_the_first_tags_is_the_file_s_own():
    text = ('{exported from a club archive}\n{second line}\n[Event "x"]\n[Result "1-0"]\n\n'
            "1. D6-F8 1-0\n")
    (game,) = read_games(text)
    assert game.tags == {"Event": "x", "Result": "1-0"} and game.moves == ["D6-F8"]
    assert game.preamble == ""


def test_a_comment_before_a_tagless_game_s_moves_is_its_opening_comment():
    first, second = read_games("{a remark} D6-F8 1-0\n{between} H11-F9 0-1\n")
    assert first.preamble == "a remark" and first.moves == ["D6-F8"]
    assert second.preamble == "" and second.moves == ["H11-F9"]
    with pytest.raises(RecordError, match="no result token"):  # (a JSON file, say)
        list(read_games("{only a remark}\n"))
