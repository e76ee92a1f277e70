"""The byte edge of the protocol: line ends, chunking, long lines, echoing client text."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st

from canter.protocol.lines import (
    MAX_LINE,
    LineTooLong,
    echo,
    error_text,
    printable,
    read_lines,
    split_at,
    tokenize,
)


def lines_of(data: bytes, chunk: int = 65536) -> list:
    stream = io.BytesIO(data)
    return list(read_lines(lambda: stream.read(chunk)))


def test_lf_crlf_and_lone_cr_each_end_one_line():
    assert lines_of(b"uci\nisready\r\ngo\rstop") == ["uci", "isready", "go", "stop"]


def test_blank_lines_are_kept_as_empty_lines_for_the_caller_to_skip():
    assert lines_of(b"a\n\n\r\n\rb\n") == ["a", "", "", "", "b"]


def test_crlf_split_across_reads_is_one_line_end():
    # The CR arrives at the end of one read, its LF at the start of the next.
    for chunk in range(1, 8):
        assert lines_of(b"uci\r\nisready\r\n", chunk) == ["uci", "isready"], chunk


def test_a_lone_cr_line_is_delivered_without_waiting_for_more_input():
    reads = iter([b"isready\r", b""])
    got = []
    for line in read_lines(lambda: next(reads)):
        got.append(line)
        break  # a second read would be needed if the CR were held back
    assert got == ["isready"]


def test_invalid_utf8_is_replaced_not_fatal():
    assert lines_of(b"go \xff\xfe depth 1\n") == ["go \ufffd\ufffd depth 1"]


def test_too_long_line_becomes_a_marker_and_the_next_line_survives():
    out = lines_of(b"x" * (MAX_LINE + 10) + b"\nisready\n", 4096)
    assert isinstance(out[0], LineTooLong)
    assert out[1:] == ["isready"]


@given(st.lists(st.text(alphabet=st.characters(blacklist_characters="\r\n",
                                                blacklist_categories=("Cs",)), max_size=20),
                max_size=10),
       st.sampled_from([b"\n", b"\r\n", b"\r"]), st.integers(1, 9))
def test_any_lines_any_ending_any_chunking_round_trip(lines, end, chunk):
    data = b"".join(line.encode() + end for line in lines)
    assert lines_of(data, chunk) == lines


def test_tokenize_treats_tabs_and_runs_of_spaces_as_one_separator():
    assert tokenize("  go\tdepth   3 \t") == ["go", "depth", "3"]
    assert tokenize(" \t ") == []


def test_echo_escapes_controls_and_cuts_long_text():
    assert echo("a\x00b\u00e9") == "a\\x00b\\xe9"
    assert echo("y" * 100) == "y" * 40 + "..."
    assert "\n" not in echo("a\nb")
    assert echo("y" * 40) == "y" * 40  # exactly the limit: nothing cut


@given(st.text(max_size=300), st.integers(min_value=8, max_value=100))
def test_echo_is_cut_to_the_limit_as_written_and_never_inside_an_escape(text, limit):
    quoted = echo(text, limit)
    whole = printable(text)
    assert quoted.isascii() and quoted.isprintable()
    if len(whole) <= limit:  # short enough as written: nothing cut (even text ending '...')
        assert quoted == whole
        return
    assert quoted.endswith("...")
    body = quoted[:-3]
    assert len(body) <= limit and whole.startswith(body)
    kept = [k for k in range(len(text)) if printable(text[:k]) == body]
    assert len(kept) == 1  # the characters kept, escaped, are the body exactly
    assert len(body) + len(printable(text[kept[0]])) > limit  # cut as late as it may be


def test_echo_keeps_text_of_its_own_that_ends_in_dots():
    assert echo("a...", 8) == "a..."


def test_error_text_escapes_quoted_text_before_cutting_it_and_cuts_it_once():
    from canter.engine.rules.text import QUOTE_LIMIT

    face = "\U0001f600"
    line = error_text(f"unknown cell in '{face * 60}' here")
    assert len(line) < 80 and line.endswith("...' here")
    # a piece `echo` already cut is not cut again (it was: five dots)
    once = error_text(f"unknown command '{echo('a' * 38 + chr(233))}' (send 'help')")
    assert once == f"unknown command '{'a' * 38}...' (send 'help')"
    assert len(echo(face * 60, QUOTE_LIMIT)) <= QUOTE_LIMIT + 3


def test_split_at_is_case_insensitive():
    assert split_at(["startpos", "MOVES", "C6-B5"], "moves") == (["startpos"], ["C6-B5"])
    assert split_at(["x"], "moves") == (["x"], None)


def test_an_error_cuts_long_quoted_text_and_never_the_words_between_quotes():
    from canter.engine.rules.text import QUOTE_LIMIT
    from canter.protocol.lines import error_text

    # Two short quotations with a long stretch of words between them: nothing is cut.
    message = ("legal: 'C6-' is not a move of the camelot board (malformed move 'C6-': it "
               "ends with '-')")
    assert error_text(message) == message
    assert error_text("the engine's move 'x'") == "the engine's move 'x'"
    long = "a" * (QUOTE_LIMIT + 10)
    assert error_text(f"bad '{long}' end") == f"bad '{'a' * QUOTE_LIMIT}...' end"


def test_a_cut_client_quote_never_takes_the_messages_words_for_client_text():
    # The client's own quote, its partner cut off with the text, paired with the message's
    # next opening quote: the words between were cut as if quoted ("): malformed move" lost).
    from canter.protocol.session import ProtocolError, Session

    token = "'" + "a" * 68 + "'"
    with pytest.raises(ProtocolError) as err:
        Session().set_position(None, ["C6-E8", token])
    line = error_text(str(err.value))
    assert line.startswith("position rejected: move 2 ('" + "a" * 39 + "...): malformed move")
    assert "': expected a cell such as F5 at '" in line


@given(st.text(st.sampled_from("a'.-()x:\u00e9\x01"), min_size=1, max_size=90))
def test_whatever_a_token_quotes_the_words_of_the_message_stay(token):
    from canter.engine.rules.text import shorten

    message = (f"position rejected: move 2 ({echo(token)}): malformed move "
               f"'{shorten(token)}': expected a cell such as F5 at '{shorten(token)}'")
    line = error_text(message)
    assert "): malformed move '" in line and "': expected a cell such as F5 at '" in line
