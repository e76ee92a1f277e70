"""Bad input to the engine protocol, both dialects: every command of docs/protocol.md with
what users and GUIs get wrong. Each case gets exactly one error line in its dialect's form
(UCI-style `info string error: ...`, CECP-style `Error (...): ...` or `Illegal move (...):
...`) holding the expected text, never a traceback or an internal error, every line the
engine writes is printable ASCII, and the engine still answers `isready` / `ping` after it.

One long-lived `python -m canter` per dialect is fed every case in turn; a marker (an unknown
command, answered by an error line naming it) and `isready` / `ping` close each case, so
the lines in between are that case's answer.
"""

from __future__ import annotations

import re
import subprocess
import sys
from typing import NamedTuple

import pytest
from badinput import ROOT
from pipe_engine import PipeEngine

from canter.engine import VARIANT_NAMES, Position, get_variant

UCI, CECP = "uci", "xboard"
ANY_LINE = re.compile(r"^.*$")

CAMELOT = get_variant("camelot")
TRI = get_variant("tri-camelot")
START = Position.start(CAMELOT).to_string()
TRI_START = Position.start(TRI).to_string()
# Cells of one board that the other lacks: the wrong variant's moves.
TRI_ONLY = sorted(set(TRI.board.names) - set(CAMELOT.board.names))[0]
CAMELOT_ONLY = sorted(set(CAMELOT.board.names) - set(TRI.board.names))[0]
# White must capture: F8xF10 takes Black's last piece.
CAPTURE_DUTY = "camelot 2/8/10/12/12/12/12/5b6/5w6/12/12/12/4w7/10/8/2 w 0,0 - - 0 30"
FIELDS = ("variant", "placement", "turn", "castle-moves", "duties", "eliminated", "quiet",
          "ply")


class Case(NamedTuple):
    dialect: str
    lines: tuple[str | bytes, ...]  # sent as they are (str as UTF-8), one per line
    expect: str | None  # text of the one error line; None: no error line at all
    setup: tuple[str, ...] = ()  # sent first (must answer no error)
    after: tuple[str, ...] = ()  # sent after (to end a search, leave analysis, ...)


def U(line: str | bytes | tuple, expect: str | None, setup=(), after=()) -> Case:
    lines = line if isinstance(line, tuple) else (line,)
    return Case(UCI, lines, expect, tuple(setup), tuple(after))


def X(line: str | bytes | tuple, expect: str | None, setup=(), after=()) -> Case:
    lines = line if isinstance(line, tuple) else (line,)
    return Case(CECP, lines, expect, tuple(setup), tuple(after))


KNOWN = ", ".join(VARIANT_NAMES)  # how errors list the games


def position_fields(text: str, index: int, value: str) -> str:
    fields = text.split()
    fields[index] = value
    return " ".join(fields)


def BAD(base: str, index: int, value: str, expect: str) -> Case:
    """`position` with field `index` of the position string `base` replaced by `value`."""
    return U("position " + position_fields(base, index, value), expect)


HUGE = "9" * 30
VERY_HUGE = "9" * 5000  # more digits than Python's int() takes by default
SEARCHING = ("position startpos", "go infinite")  # setup: a search is running

# ---- UCI-style dialect -------------------------------------------------------------------
UCI_CASES: list[Case] = [
    # unknown commands, odd bytes, non-ASCII, invalid UTF-8, long lines
    U("frobnicate", "unknown command 'frobnicate' (send 'help' for the list)"),
    U("GO!", "unknown command 'GO!'"),
    U(b"\xff(x", "unknown command '\\ufffd(x'"),
    U(b"\x00\x01\x02", "unknown command '\\x00\\x01\\x02'"),
    U(b"\x1b[31mred", "unknown command '\\x1b[31mred'"),
    U("caf\u00e9", "unknown command 'caf\\xe9'"),
    U("\u20ac", "unknown command '\\u20ac'"),
    U("\U0001f600 go", "unknown command '\\U0001f600'"),
    U(b"\xc3", "unknown command '\\ufffd'"),
    U(b"\xed\xa0\x80", "unknown command '\\ufffd\\ufffd\\ufffd'"),  # a UTF-16 surrogate
    U("x" * 100, "unknown command '" + "x" * 40 + "...'"),
    U(b"x" * 70000, "line of 70000 bytes or more dropped (limit 65536 bytes)"),
    U(b"go " + b"9" * 70000, "dropped (limit 65536 bytes)"),
    U(b"\x7f", "unknown command '\\x7f'"),
    U(b"\xc2\xa0isready", None),  # a no-break space is whitespace too: readyok
    # uci, isready, ucinewgame, stop, ponderhit, help, result, getposition, d, eval:
    # extra arguments are reported and the command is still carried out
    U("uci please", "uci takes no arguments; 'please' ignored"),
    U("isready now", "isready takes no arguments; 'now' ignored"),
    U("ucinewgame x y", "ucinewgame takes no arguments; 'x y' ignored"),
    U("stop now", "stop takes no arguments; 'now' ignored"),
    U("help me", "help takes no arguments; 'me' ignored"),
    U("result 1-0", "result takes no arguments; '1-0' ignored"),
    U("getposition fen", "getposition takes no arguments; 'fen' ignored"),
    U("d board", "d takes no arguments; 'board' ignored"),
    U("eval deep", "eval takes no arguments; 'deep' ignored"),
    U("isready \u00e9", "isready takes no arguments; '\\xe9' ignored"),
    U("ponderhit", "ponderhit ignored: no ponder search is running"),
    U("ponderhit now", "ponderhit takes no arguments; 'now' ignored"),  # and the refusal
    U("stop", None),
    U("debug on", None),
    U("register later", None),
    U("xboard", "the CECP dialect is chosen only by a first command 'xboard'"),
    # setoption
    U("setoption", "setoption needs: setoption name <name> [value <value>]"),
    U("setoption Hash value 3", "setoption needs: setoption name"),
    U("setoption value 3", "setoption needs: setoption name"),
    U("setoption name", "setoption: the option name is missing"),
    U("setoption name value 3", "setoption: the option name is missing"),
    U("setoption name Colour value red", "unknown option 'Colour'"),
    U("setoption name \u00e9 value 1", "unknown option '\\xe9'"),
    U("setoption name " + "N" * 60 + " value 1", "unknown option '" + "N" * 40 + "...'"),
    U("setoption name Hash", "option 'Hash' needs a value"),
    U("setoption name Threads value 0", "option 'Threads' takes 1 to 64"),
    U("setoption name Threads value 65", "option 'Threads' takes 1 to 64"),
    U("setoption name Threads value abc", "option 'Threads' takes a whole number"),
    U("setoption name Threads", "option 'Threads' needs a value"),
    U("setoption name Hash value", "option 'Hash' takes a whole number"),
    U("setoption name Hash value huge", "option 'Hash' takes a whole number"),
    U("setoption name Hash value 1e2", "option 'Hash' takes a whole number"),
    U("setoption name Hash value 0", "option 'Hash' takes 1 to 4096"),
    U("setoption name Hash value -1", "option 'Hash' takes 1 to 4096"),
    U("setoption name Hash value 4097", "option 'Hash' takes 1 to 4096"),
    U(f"setoption name Hash value {HUGE}", "option 'Hash' takes 1 to 4096"),
    U(f"setoption name Hash value {VERY_HUGE}", "option 'Hash' takes 1 to 4096"),
    U("setoption name Hash value 1_0", "option 'Hash' takes a whole number"),
    U("setoption name Hash value \u0663", "option 'Hash' takes a whole number"),
    U("setoption name MultiPV value 0", "option 'MultiPV' takes 1 to 64"),
    U("setoption name MultiPV value 65", "option 'MultiPV' takes 1 to 64"),
    U("setoption name Move Overhead value -5", "option 'Move Overhead' takes 0 to 5000"),
    U("setoption name Skill Level value 21", "option 'Skill Level' takes 0 to 20"),
    U("setoption name Ponder value yes", "option 'Ponder' takes true or false"),
    U("setoption name Ponder", "option 'Ponder' needs a value"),
    U("setoption name UCI_Variant value chess",
      "option 'UCI_Variant' takes one of: camelot, tri-camelot, cam, camette, chivalry, grand-cam"),
    U("setoption name UCI_Variant value \u00e9", "option 'UCI_Variant' takes one of"),
    U("setoption name Three Seat Search value best",
      "option 'Three Seat Search' takes one of: paranoid, brs, brs+, maxn"),
    U("setoption name Three Seat Opponent Moves value 65",
      "option 'Three Seat Opponent Moves' takes 0 to 64"),
    U("setoption name Three Seat Read Opponents value 1",
      "option 'Three Seat Read Opponents' takes true or false"),
    U("setoption name Rule Repetition value never",
      "option 'Rule Repetition' takes one of: auto, claim, off"),
    U("setoption name Rule Quiet Limit value -1", "option 'Rule Quiet Limit' takes 0 to 100000"),
    U("setoption name Rule Exit Duty Persists value maybe",
      "option 'Rule Exit Duty Persists' takes true or false"),
    U("setoption name Rule No Move value draw", "option 'Rule No Move' takes one of: lose, pass"),
    U("setoption name Hash value 8", "option 'Hash' not set: a search is running",
      setup=SEARCHING, after=("stop",)),
    U("setoption name UCI_Variant value tri-camelot", "not set: a search is running",
      setup=SEARCHING, after=("stop",)),
    # position: arguments, moves, each field of the position string
    U("position", "position needs 'startpos' or a position string"),
    U("position startpos junk", "position rejected: expected 'moves' after 'startpos', not 'junk'"),
    U("position startpos \u00e9", "expected 'moves' after 'startpos', not '\\xe9'"),
    U("position startpos moves", None),
    U("position fen", "position rejected: the position string is missing"),
    U("position moves C6-B5", "position rejected: the position string is missing"),
    U("position startpos moves C6-B5 H11-F9 B5-B3", "position rejected: move 3 (B5-B3): illegal"),
    U("position startpos moves Z9-A1", "move 1 (Z9-A1): unknown cell Z9 in 'Z9-A1'"),
    U("position startpos moves C6--B5", "move 1 (C6--B5): malformed move 'C6--B5'"),
    U("position startpos moves C6-", "move 1 (C6-): malformed move 'C6-': it ends with '-'"),
    U("position startpos moves C6", "move 1 (C6): malformed move 'C6': a move names at least two"),
    U("position startpos moves d6", "move 1 (d6): malformed move 'd6': a move names at least"),
    U("position startpos moves d6f", "move 1 (d6f): malformed move 'd6f': cells must be joined"),
    U("position startpos moves d6f8x", "move 1 (d6f8x): malformed move 'd6f8x'"),
    U("position startpos moves d6f8 d6f8", "move 2 (d6f8): illegal: no piece on D6"),
    U("position startpos moves d6f8", None),
    U("position startpos moves D6F8 h11f9 c6g8", None),
    U("position startpos moves \u00e9", "move 1 (\\xe9): malformed move '\\xe9'"),
    U("position startpos moves C6-B5\u20ac", "move 1 (C6-B5\\u20ac): malformed move"),
    U(b"position startpos moves C6-B5\xff", "move 1 (C6-B5\\ufffd): malformed move"),
    U("position startpos moves " + "C6-B5 " * 5000, "move 2 (C6-B5): illegal: no piece on C6"),
    U("position startpos moves " + "Q" * 500, "move 1 (" + "Q" * 40 + "...): malformed move '"
      + "Q" * 40 + "...'"),
    U("position startpos moves D6-" + "D7-" * 2000 + "D8", "move 1 (D6-D7-D7-D7-"),
    U(f"position startpos moves {TRI_ONLY}-E8", f"unknown cell {TRI_ONLY} in"),
    U("position startpos moves E4-E8", "move 1 (E4-E8): illegal: no piece on E4"),
    U(f"position {TRI_START} moves C6-B5", "move 1 (C6-B5): unknown cell B5 in 'C6-B5' "
      "(tri-camelot has no such cell)"),
    U(f"position {TRI_START} moves {CAMELOT_ONLY}-A1", f"unknown cell {CAMELOT_ONLY}"),
    U(f"position {CAPTURE_DUTY} moves F8-F7", "move 1 (F8-F7): illegal: a capture is compulsory"),
    U(f"position {CAPTURE_DUTY} moves F8xF10 B5-B4",
      "move 2 (B5-B4): illegal: the game is over"),
    U("position camelot", "bad position string: fields: expected 8 fields"),
    U("position camelot 2/8 w", "bad position string: fields: expected 8 fields"),
    U(f"position {START} extra", "bad position string: fields: expected 8 fields"),
    U(f"position fen {START} moves", None),
    U("position chess 8/8 w - - 0 1", "bad position string"),
    BAD(START, 0, "chess", "bad position string: variant: unknown variant 'chess'"),
    BAD(START, 0, "camelot\u00e9", "variant: unknown variant 'camelot\\xe9'"),
    BAD(START, 0, "Q" * 100, "variant: unknown variant '" + "Q" * 40 + "...'"),
    BAD(START, 0, "tri-camelot", "bad position string: placement:"),
    BAD(START, 1, "2/8", "bad position string: placement: camelot has 16 ranks"),
    BAD(START, 1, START.split()[1].replace("B", "\u00e9", 1),
      "placement: rank 11: unknown piece letter '\\xe9'"),
    BAD(START, 1, START.split()[1].replace("2", "99999999999999999999", 1),
      "bad position string: placement: rank 16: a run of '99999999999999999999' empty "
      "cells is longer than the rank's 2 cells"),
    BAD(START, 1, START.split()[1].replace("2", VERY_HUGE, 1),
      "placement: rank 16: a run of '9999"),
    BAD(START, 3, f"{VERY_HUGE},0", "castle-moves: white has used 9999"),
    BAD(START, 6, VERY_HUGE, "quiet: '9999"),
    BAD(START, 1, START.split()[1].replace("2B", "3B", 1),
      "bad position string: placement: rank 11"),
    BAD(START, 2, "x", "bad position string: turn: 'x' is not a seat letter"),
    BAD(START, 2, "r", "bad position string: turn: 'r' is not a seat letter"),
    BAD(START, 3, "0,0,0", "castle-moves: expected 2 whole numbers"),
    BAD(START, 3, "x,0", "castle-moves: expected 2 whole numbers"),
    BAD(START, 3, f"{HUGE},0", "castle-moves: white has used"),
    BAD(START, 4, "Z9", "bad position string: duties: unknown cell 'Z9'"),
    BAD(START, 4, "F8", "bad position string: duties: F8 is not a castle cell"),
    BAD(START, 5, "q", "bad position string: eliminated: 'q' is not a seat"),
    BAD(START, 5, "w", "bad position string: eliminated: white still has"),
    BAD(START, 6, "-1", "bad position string: quiet: expected a whole number"),
    BAD(START, 6, "x", "bad position string: quiet: expected a whole number"),
    BAD(START, 6, "5", "bad position string: quiet: 5 quiet plies cannot exceed"),
    BAD(START, 7, "x", "bad position string: ply: expected a whole number"),
    BAD(START, 7, "1.5", "bad position string: ply: expected a whole number"),
    BAD(TRI_START, 0, "camelot", "bad position string: placement: camelot has 16"),
    BAD(TRI_START, 2, "w", "bad position string: turn: 'w' is not a seat letter"),
    BAD(TRI_START, 3, "0,0", "castle-moves: expected 3 whole numbers"),
    BAD(TRI_START, 5, "x", "bad position string: eliminated: 'x' is not a seat"),
    U("position startpos moves Z9-A1", "move 1 (Z9-A1)", setup=SEARCHING, after=("stop",)),
    # go: bad parts are reported, and every go still gets its bestmove
    U("go depth", "go: 'depth' needs a number", after=("stop",)),
    U("go depth x", "go: 'depth' needs a whole number, not 'x'", after=("stop",)),
    U("go depth 0", "go: 'depth' needs a number of at least 1", after=("stop",)),
    U("go depth -3", "go: 'depth' needs a number of at least 1", after=("stop",)),
    U("go depth 1.5", "go: 'depth' needs a whole number, not '1.5'", after=("stop",)),
    U(f"go depth {HUGE}", f"go: 'depth' takes at most {2**63 - 1}, not '{HUGE}'",
      after=("stop",)),
    U(f"go depth {VERY_HUGE}", f"go: 'depth' takes at most {2**63 - 1}", after=("stop",)),
    U("go depth \u0663", "go: 'depth' needs a whole number, not '\\u0663'", after=("stop",)),
    U("go nodes -1", "go: 'nodes' needs a number of at least 1", after=("stop",)),
    U("go nodes many", "go: 'nodes' needs a whole number, not 'many'", after=("stop",)),
    U("go mate 0", "go: 'mate' needs a number of at least 1", after=("stop",)),
    U("go movestogo 0 wtime 100 btime 100", "go: 'movestogo' needs a number of at least 1"),
    U("go movetime", "go: 'movetime' needs a number", after=("stop",)),
    U("go movetime soon", "go: 'movetime' needs a whole number, not 'soon'", after=("stop",)),
    U(f"go movetime {HUGE} depth 1", "go: 'movetime' takes at most"),
    U(f"go wtime {HUGE} btime 100 depth 1", "go: 'wtime' takes at most"),
    U(f"go winc {VERY_HUGE} depth 1", "go: 'winc' takes at most"),
    U("go wtime 1e3 depth 1", "go: 'wtime' needs a whole number, not '1e3'"),
    U("go wtime depth 1", "go: 'wtime' needs a number"),
    U("go frob depth 1", "go: unknown keyword 'frob' ignored"),
    U("go frob 7 depth 1", "go: unknown keyword 'frob 7' ignored"),
    U("go perf 1 depth 1", "go: unknown keyword 'perf 1' ignored"),
    U("go \u00e9 depth 1", "go: unknown keyword '\\xe9' ignored"),
    U("go bluetime 100 depth 1", "go: unknown keyword 'bluetime 100' ignored"),
    U("go wtime 100 depth 1", "go: 'wtime' is a Camelot clock keyword; in tri-camelot use",
      setup=("setoption name UCI_Variant value tri-camelot",)),
    U("go searchmoves depth 1", "go: searchmoves without moves ignored"),
    U("go searchmoves Z9 depth 1", "searchmoves: Z9 ignored: unknown cell Z9 in 'Z9'"),
    U("go searchmoves C6-B4 depth 1", "searchmoves: C6-B4 ignored: illegal"),
    U("go searchmoves \u00e9 depth 1", "searchmoves: \\xe9 ignored: malformed move '\\xe9'"),
    U(f"go searchmoves {TRI_ONLY}-A1 depth 1", f"searchmoves: {TRI_ONLY}-A1 ignored: unknown"),
    U("go searchmoves d6f8 depth 1", None),
    U("go depth 1", None, setup=SEARCHING),  # a go during a search answers the first
    # go perft (Stockfish's spelling) and perft
    U("go perft", "go perft needs a depth"),
    U("go perft x", "go perft: depth must be a whole number, not 'x'"),
    U("go perft -1", "go perft: depth must not be negative"),
    U("go perft 65", "go perft: depth must be at most 64, not '65'"),
    U(f"go perft {HUGE}", f"go perft: depth must be at most 64, not '{HUGE}'"),
    U("go perft 1 2", "go perft takes one number"),
    U("go perft 1", "perft refused: a search is running", setup=SEARCHING, after=("stop",)),
    U("perft", "perft needs a depth"),
    U("perft deep", "perft: depth must be a whole number, not 'deep'"),
    U("perft 1.5", "perft: depth must be a whole number, not '1.5'"),
    U("perft -1", "perft: depth must not be negative"),
    U("perft 1 2", "perft takes one number"),
    U("perft 65", "perft: depth must be at most 64, not '65'"),
    U("perft 100000", "perft: depth must be at most 64, not '100000'"),
    U(f"perft {HUGE}", "perft: depth must be at most 64"),
    U(f"perft {VERY_HUGE}", "perft: depth must be at most 64"),
    U("perft \u00e9", "perft: depth must be a whole number, not '\\xe9'"),
    U("perft 1", "perft refused: a search is running", setup=SEARCHING, after=("stop",)),
    U("perft 100000", "perft: depth must be at most 64", setup=(f"position {CAPTURE_DUTY}",)),
    # bench
    U("bench x", "bench: depth must be a whole number, not 'x'"),
    U("bench -1", "bench: depth must not be negative"),
    U("bench 1 2", "bench takes one number"),
    U("bench 61", "bench: depth must be at most 60, not '61'"),
    U(f"bench {HUGE}", "bench: depth must be at most 60"),
    U("bench 1", "bench refused: a search is running", setup=SEARCHING, after=("stop",)),
    U("eval", "eval refused: a search is running", setup=SEARCHING, after=("stop",)),
    # legal
    U("legal Q99", "no cell 'Q99' on the camelot board"),
    # two cells without a separator, as UCI GUIs write moves: the notation's reason
    U("legal d6z9", "legal: 'd6z9' is not a move of the camelot board (unknown cell Z9"),
    U("legal A4 A5", "legal takes at most one cell or move"),
    U("legal \u00e9", "no cell '\\xe9' on the camelot board"),
    U(b"legal \x00", "no cell '\\x00' on the camelot board"),
    U(f"legal {TRI_ONLY}", f"no cell '{TRI_ONLY}' on the camelot board"),
    U(f"legal {CAMELOT_ONLY}", f"no cell '{CAMELOT_ONLY}' on the tri-camelot board",
      setup=("setoption name UCI_Variant value tri-camelot",)),
    U("legal " + "F" * 80, "no cell '" + "F" * 40 + "...' on the camelot board"),
    U("legal F6", None, setup=SEARCHING, after=("stop",)),
]

# ---- CECP-style dialect ------------------------------------------------------------------
# setup: the engine thinks on its own move (the start position is in its book: off)
THINKING = ("option OwnBook=0", "level 0 5 0", "st 30", "go")

CECP_CASES: list[Case] = [
    X("frobnicate", "Error (unknown command): frobnicate"),
    X("perft 1", "Error (unknown command): perft 1"),
    X("isready", "Error (unknown command): isready"),
    X(b"\xff(x", "Error (unknown command): \\ufffd(x"),
    X(b"\x01\x02", "Error (unknown command): \\x01\\x02"),
    X("caf\u00e9", "Error (unknown command): caf\\xe9"),
    X("\U0001f600", "Error (unknown command): \\U0001f600"),
    X("y" * 100, "Error (unknown command): " + "y" * 80 + "..."),
    X(b"x" * 70000, "Error (line of 70000 bytes or more dropped (limit 65536 bytes)): "
      "(line dropped)"),
    # commands that take no arguments
    X("new game", "Error (new takes no arguments; 'game' ignored): new game"),
    X("force now", "Error (force takes no arguments; 'now' ignored)"),
    X("playother x", "Error (playother takes no arguments; 'x' ignored)"),
    X("draw please", "Error (draw takes no arguments; 'please' ignored)"),
    X("hard x", "Error (hard takes no arguments"),
    X("easy x", "Error (easy takes no arguments"),
    X("post x", "Error (post takes no arguments"),
    X("nopost x", "Error (nopost takes no arguments"),
    X("? x", "Error (? takes no arguments"),
    X(". x", "Error (. takes no arguments"),
    X("getposition x", "Error (getposition takes no arguments"),
    X("d x", "Error (d takes no arguments"),
    X("help x", "Error (help takes no arguments"),
    X("go \u00e9", "Error (go takes no arguments; '\\xe9' ignored)", setup=("sd 1",),
      after=("force",)),
    X("exit", "Error (exit leaves analyze mode, and the engine is not analysing): exit"),
    X("exit now", "Error (exit takes no arguments", setup=("analyze",)),
    X("analyze x", "Error (analyze takes no arguments", after=("exit",)),
    X("hint x", "Error (hint takes no arguments", setup=("sd 1",)),
    X("undo", "Error (undo needs 1 move to take back, the game since new/setboard has 0)"),
    X("undo x", "Error (undo takes no arguments"),  # and the refusal: two lines
    X("remove", "Error (remove needs 2 moves to take back, the game since new/setboard has 0)"),
    X(("usermove C6-B5", "remove"), "Error (remove needs 2 moves to take back"),
    # variant, setboard
    X("variant", f"Error (variant must be one of: {KNOWN}): variant"),
    X("variant chess", f"Error (variant must be one of: {KNOWN}): variant chess"),
    X("variant camelot tri-camelot", "Error (variant must be one of"),
    X("variant \u00e9", f"Error (variant must be one of: {KNOWN}): variant \\xe9"),
    X("setboard", "Error (setboard needs a position string): setboard"),
    X("setboard camelot", "Error (position rejected: bad position string: fields: expected 8"),
    X(f"setboard {position_fields(START, 1, '2/8')}",
      "Error (position rejected: bad position string: placement: camelot has 16 ranks"),
    X(f"setboard {position_fields(START, 2, 'g')}", "turn: 'g' is not a seat letter"),
    X(f"setboard {position_fields(START, 0, 'camelot' + chr(0))}",
      "variant: unknown variant 'camelot\\x00'"),
    X(f"setboard {position_fields(START, 1, START.split()[1].replace('B', 'é', 1))}",
      "unknown piece letter '\\xe9'"),
    X(f"setboard {position_fields(TRI_START, 3, '0,0')}", "castle-moves: expected 3 whole"),
    # usermove and bare moves
    X("usermove", "Error (usermove needs exactly one move): usermove"),
    X("usermove C6-B5 H11-F9", "Error (usermove needs exactly one move)"),
    X("usermove Z9-A1", "Illegal move (unknown cell Z9 in 'Z9-A1' (camelot has no such cell)): "
      "Z9-A1"),
    X("usermove hello", "Illegal move (malformed move 'hello'"),
    X("usermove E4-E8", "Illegal move (no piece on E4): E4-E8"),
    X("usermove d6", "Illegal move (malformed move 'd6': a move names at least two cells): d6"),
    X("usermove d6f8x", "Illegal move (malformed move 'd6f8x'"),
    X("usermove d6f8", None),
    X("D6F8", None),
    X("d6f8", None),
    X("c6-b5", None),
    X("usermove \u00e9", "Illegal move (malformed move '\\xe9': expected a cell such as F5 at "
      "'\\xe9'): \\xe9"),
    X("usermove " + "Q" * 100, "Illegal move (malformed move '" + "Q" * 40 + "...'"),
    X(f"usermove {TRI_ONLY}-A1", f"Illegal move (unknown cell {TRI_ONLY}"),
    X(f"usermove {CAMELOT_ONLY}-A1", f"Illegal move (unknown cell {CAMELOT_ONLY}",
      setup=("variant tri-camelot", "force")),
    X("usermove F8-F7", "Illegal move (a capture is compulsory): F8-F7",
      setup=(f"setboard {CAPTURE_DUTY}",)),
    X(("usermove F8xF10", "usermove B5-B4"), "Illegal move (the game is over: white wins",
      setup=(f"setboard {CAPTURE_DUTY}",)),
    X("usermove C11-C10", "Illegal move (not your turn: the engine is thinking (send ? or force))",
      setup=THINKING, after=("force",)),
    # clocks and limits
    X("level", "Error (level needs MPS BASE INC, e.g. level 40 5 0 or level 0 2:30 1): level"),
    X("level 40 5", "Error (level needs MPS BASE INC"),
    X("level 40 5 0 1", "Error (level needs MPS BASE INC"),
    X("level x 5 0", "Error (moves per control must be a whole number, not 'x')"),
    X("level 40 x 0", "Error (base time must be minutes or minutes:seconds, not 'x')"),
    X("level 40 5:x 0", "Error (base time must be minutes or minutes:seconds, not '5:x')"),
    X(f"level 40 {HUGE}:00 0", f"Error (base time must be minutes or minutes:seconds, not "
      f"'{HUGE}:00')"),
    X("level 40 5 x", "Error (increment must be seconds, not 'x')"),
    X("level -1 5 0", "Error (level values must not be negative)"),
    X("level 40 -5 0", "Error (level values must not be negative)"),
    X("level 40 5 -1", "Error (level values must not be negative)"),
    X(f"level {HUGE} 5 0", f"Error (moves per control must be at most {2**63 - 1})"),
    X("level 40 nan 0", "Error (level times must be finite numbers)"),
    X("level 40 inf 0", "Error (level times must be finite numbers)"),
    X("level 40 1e308 0", "Error (level times must be finite numbers)"),
    X("level 40 5 inf", "Error (level times must be finite numbers)"),
    X("level 40 5 1e999", "Error (level times must be finite numbers)"),
    X("st", "Error (st: seconds per move needed (one number)): st"),
    X("st 1 2", "Error (st: seconds per move needed (one number))"),
    X("st x", "Error (st: seconds per move must be a number, not 'x')"),
    X("st 0", "Error (st: seconds per move must be at least 0.01)"),
    X("st -1", "Error (st: seconds per move must be at least 0.01)"),
    X("st inf", "Error (st: seconds per move must be a finite number, not 'inf')"),
    X("st nan", "Error (st: seconds per move must be a finite number, not 'nan')"),
    X("st 1e400", "Error (st: seconds per move must be a finite number, not '1e400')"),
    X("sd", "Error (sd: depth needed (one number)): sd"),
    X("sd x", "Error (sd: depth must be a whole number, not 'x')"),
    X("sd 1.5", "Error (sd: depth must be a whole number, not '1.5')"),
    X("sd 0", "Error (sd: depth must be at least 1): sd 0"),
    X("sd -1", "Error (sd: depth must be at least 1)"),
    X(f"sd {HUGE}", f"Error (sd: depth must be at most {2**63 - 1})"),
    X("sd \u0663", "Error (sd: depth must be a whole number, not '\\u0663')"),
    X("time", "Error (time: centiseconds needed (one number)): time"),
    X("time x", "Error (time: centiseconds must be a number, not 'x')"),
    # ASCII decimals only: Python's float() reads these as 1000 and 12
    X("time 1_000", "Error (time: centiseconds must be a number, not '1_000')"),
    X("time \u0661\u0662", "Error (time: centiseconds must be a number, not "
                           "'\\u0661\\u0662')"),
    X("time inf", "Error (time: centiseconds must be a finite number, not 'inf')"),
    X("time 1e400", "Error (time: centiseconds must be a finite number"),
    X("time -5", None),  # a clock already run out: taken as 0
    X("otim", "Error (otim: centiseconds needed (one number)): otim"),
    X("otim nan", "Error (otim: centiseconds must be a finite number, not 'nan')"),
    X("otim \u00e9", "Error (otim: centiseconds must be a number, not '\\xe9')"),
    X("seattime", "Error (seattime needs a seat (white, black) and centiseconds): seattime"),
    X("seattime white", "Error (seattime needs a seat (white, black) and centiseconds)"),
    X("seattime red 100", "Error (seattime needs a seat (white, black) and centiseconds)"),
    X("seattime white x", "Error (seattime: centiseconds must be a number, not 'x')"),
    X("seattime white 1e400", "Error (seattime: centiseconds must be a finite number"),
    X("seattime white 100 200", "Error (seattime needs a seat (white, black) and centiseconds)"),
    X("seattime white 100", "Error (seattime needs a seat (blue, red, green) and centiseconds)",
      setup=("variant tri-camelot",)),
    # options
    X("option", "Error (option needs NAME=VALUE (or NAME for a button)): option"),
    X("option =", "Error (unknown option ''): option ="),
    X("option =5", "Error (unknown option ''): option =5"),
    X("option Nonsense=3", "Error (unknown option 'Nonsense'): option Nonsense=3"),
    X("option OwnBook=2", "Error (option 'OwnBook' takes 1 or 0 (or true or false)): "
                          "option OwnBook=2"),
    X("option \u00e9=1", "Error (unknown option '\\xe9'): option \\xe9=1"),
    X("option Hash", "Error (option 'Hash' needs a value): option Hash"),
    X("option Hash=", "Error (option 'Hash' takes a whole number): option Hash="),
    X("option Hash=x", "Error (option 'Hash' takes a whole number)"),
    X("option Hash=0", "Error (option 'Hash' takes 1 to 4096): option Hash=0"),
    X(f"option Hash={HUGE}", "Error (option 'Hash' takes 1 to 4096)"),
    X("option Hash=8=9", "Error (option 'Hash' takes a whole number)"),
    X("option MultiPV=65", "Error (option 'MultiPV' takes 1 to 64)"),
    X("option UCI_Variant=camelot", "Error (option 'UCI_Variant' is set by the 'variant' command)"),
    X("option Ponder=1", "Error (option 'Ponder' is set by 'hard' and 'easy')"),
    X("option Resign Threshold=-1", "Error (option 'Resign Threshold' takes 0 to 100000)"),
    X("option Resign Threshold=x", "Error (option 'Resign Threshold' takes a whole number)"),
    X("option Rule Repetition=never", "Error (option 'Rule Repetition' takes one of: auto, "
      "claim, off)"),
    X("option Rule Exit Duty Persists=2", "Error (option 'Rule Exit Duty Persists' takes 1 or "
      "0 (or true or false))"),
    X("option Three Seat Search=best", "Error (option 'Three Seat Search' takes one of"),
    X("option Hash=8", "Error (option 'Hash' not set: the engine is thinking on its move (send "
      "? or force first))", setup=THINKING, after=("force",)),
    # referee commands
    X("legal Z99", "Error (no cell 'Z99' on the camelot board): legal Z99"),
    X("legal F6 F7", "Error (legal takes at most one cell or move): legal F6 F7"),
    X("legal \u00e9", "Error (no cell '\\xe9' on the camelot board): legal \\xe9"),
    X(f"legal {TRI_ONLY}", f"Error (no cell '{TRI_ONLY}' on the camelot board)"),
    # accepted and without effect, or answered without error
    X("protover", None),
    X("protover x", None),
    X("accepted \u00e9", None),
    X("rejected", None),
    X("random", None),
    X("computer", None),
    X("name \u00e9 \u20ac", None),
    X("rating x y", None),
    X("ics", None),
    X("memory x", None),
    X("cores -1", "Error (cores: processors must be at least 1): cores -1"),
    X("cores 0", "Error (cores: processors must be at least 1): cores 0"),
    X("cores abc", "Error (cores: processors must be a whole number, not 'abc'): cores abc"),
    X("cores 2 3", "Error (cores: processors needed (one number)): cores 2 3"),
    X("cores 1", None),
    X("option Threads=2", "Error (option 'Threads' is set by the 'cores' command): "
                          "option Threads=2"),
    X("egtpath", None),
    X("nps x", None),
    X("result", None),
    X("result 1-0 {\u00e9}", None),
    X("?", None),
    X("draw", None),
    X(".", None),
]

CASES = UCI_CASES + CECP_CASES


# ---- the driver --------------------------------------------------------------------------
def is_error(dialect: str, line: str) -> bool:
    if dialect == UCI:
        return line.startswith("info string error:")
    return line.startswith(("Error (", "Illegal move ("))


class Sweep:
    """One engine process of a dialect, fed case after case."""

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self.engine = PipeEngine(ANY_LINE)
        self.n = 0
        if dialect == UCI:
            self.send("uci")
            self.read_until(lambda line: line == "uciok")
        else:
            self.send("xboard", "protover 2")
            self.read_until(lambda line: line == "feature done=1")

    def send(self, *lines: str | bytes) -> None:
        data = b"".join((x if isinstance(x, bytes) else x.encode("utf-8")) + b"\n"
                        for x in lines)
        self.engine.send_bytes(data)

    def read_until(self, done) -> list[str]:
        out = []
        while True:
            line = self.engine.read(timeout=30)
            out.append(line)
            if done(line):
                return out

    def reset(self) -> tuple[str, ...]:
        if self.dialect == UCI:
            return ("stop", "setoption name UCI_Variant value camelot", "ucinewgame",
                    "position startpos")
        return ("force", "easy", "new", "force")

    def run(self, case: Case) -> tuple[list[str], list[str]]:
        """The lines the case produced (before the marker), and those of its setup."""
        self.n += 1
        marker = f"zzmark{self.n}"
        self.send(*self.reset(), *case.setup)
        setup_lines = self.sync()
        self.send(*case.lines, *case.after,
                  *(("stop",) if self.dialect == UCI else ("force",)), marker)
        out = self.read_until(lambda line: marker in line)[:-1]
        assert self.alive_check(), "no answer to isready/ping after the case"
        return out, setup_lines

    def sync(self) -> list[str]:
        self.n += 1
        if self.dialect == UCI:
            self.send("isready")
            return self.read_until(lambda line: line == "readyok")[:-1]
        self.send(f"ping {self.n}")
        return self.read_until(lambda line: line == f"pong {self.n}")[:-1]

    def alive_check(self) -> bool:
        self.sync()
        return self.engine.proc.poll() is None

    def close(self) -> int:
        return self.engine.close()


def printable_ascii(line: str) -> bool:
    return line.isascii() and line.isprintable()


@pytest.fixture(scope="module")
def sweeps():
    engines = {UCI: Sweep(UCI), CECP: Sweep(CECP)}
    yield engines
    for sweep in engines.values():
        assert sweep.close() == 0
        stderr = b"".join(sweep.engine.stderr).decode("utf-8", "replace")
        assert "Traceback" not in stderr, stderr


def case_id(case: Case) -> str:
    text = case.lines[0]
    text = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
    return f"{case.dialect}:{printable_one(text)[:50]}"


def printable_one(text: str) -> str:
    return "".join(c if c.isascii() and c.isprintable() else "?" for c in text)


def expected_extra_errors(case: Case) -> int:
    """Cases that are two mistakes at once (extra arguments to a command that is then
    refused) answer two error lines."""
    first = case.lines[-1]
    first = first if isinstance(first, str) else ""
    return 1 if first in ("ponderhit now", "undo x") else 0


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_bad_protocol_input_gets_one_error_line(sweeps, case: Case):
    sweep = sweeps[case.dialect]
    out, setup_lines = sweep.run(case)
    everything = out + setup_lines
    assert all(printable_ascii(line) for line in everything), everything
    assert not [x for x in everything if "internal error" in x or "Traceback" in x], everything
    assert not [x for x in setup_lines if is_error(case.dialect, x)], setup_lines
    errors = [x for x in out if is_error(case.dialect, x)]
    if case.expect is None:
        assert errors == [], out
        return
    assert len(errors) == 1 + expected_extra_errors(case), out
    assert any(case.expect in e for e in errors), (case.expect, errors)
    if case.dialect == UCI:
        gos = sum(1 for x in (*case.setup, *case.lines)
                  if isinstance(x, str) and x.split()[:1] == ["go"]
                  and x.split()[1:2] != ["perft"])
        assert sum(1 for x in out + setup_lines if x.startswith("bestmove")) == gos, out


def test_the_sweep_covers_every_documented_command():
    """Every command word of both dialects' tables in docs/protocol.md has a case."""
    uci_words = {"uci", "isready", "setoption", "ucinewgame", "position", "go", "stop",
                 "ponderhit", "debug", "register", "legal", "result", "getposition", "d",
                 "perft", "eval", "bench", "help", "xboard"}
    cecp_words = {"protover", "accepted", "rejected", "new", "variant", "setboard", "force",
                  "go", "playother", "usermove", "undo", "remove", "result", "level", "st",
                  "sd", "time", "otim", "seattime", "?", "ping", "draw", "hard", "easy",
                  "post", "nopost", "hint", "analyze", "exit", ".", "option", "legal",
                  "getposition", "d", "help", "random", "computer", "name", "rating", "ics",
                  "memory", "cores", "egtpath", "nps"}
    docs = (ROOT / "docs" / "protocol.md").read_text()
    for word in uci_words | cecp_words:
        assert f"`{word}" in docs, word  # the lists above are the documented commands

    def words(dialect: str) -> set[str]:
        out = set()
        for case in CASES:
            if case.dialect == dialect:
                for line in (*case.setup, *case.lines):
                    if isinstance(line, str) and line.split():
                        out.add(line.split()[0].lower())
        return out

    # ping and quit are checked by every case and by test_quit_with_arguments_still_quits
    assert uci_words - words(UCI) == set()
    assert cecp_words - words(CECP) - {"ping"} == set()


@pytest.mark.parametrize("dialect, opening, answer", [
    (UCI, b"uci\n", "info string error: quit takes no arguments; 'now' ignored"),
    (CECP, b"xboard\nprotover 2\n", "Error (quit takes no arguments; 'now' ignored): quit now"),
])
def test_quit_with_arguments_still_quits(dialect, opening, answer):
    proc = subprocess.run([sys.executable, "-m", "canter"], input=opening + b"quit now\n",
                          capture_output=True, timeout=30)
    lines = proc.stdout.decode("ascii").splitlines()
    assert proc.returncode == 0
    assert lines[-1] == answer
    assert b"Traceback" not in proc.stderr


def test_ping_without_or_with_odd_arguments_is_answered():
    proc = subprocess.run([sys.executable, "-m", "canter"],
                          input="xboard\nping\nping x\nping \u00e9\nping 1 2\n".encode(),
                          capture_output=True, timeout=30)
    assert proc.stdout.decode("ascii").splitlines() == ["pong", "pong x", "pong \\xe9",
                                                        "pong 1 2"]


def test_case_count():
    """The report's figure: how many bad inputs the table holds."""
    assert len(UCI_CASES) >= 150 and len(CECP_CASES) >= 130, (len(UCI_CASES), len(CECP_CASES))
