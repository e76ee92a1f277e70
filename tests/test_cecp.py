"""The CECP-style (xboard) dialect end to end: `python -m canter` on real pipes, driven the
way xboard drives an engine, every engine move checked with the rules library."""

from __future__ import annotations

import queue
import re
import subprocess
import time

import pytest
from pipe_engine import ENGINE_CMD, PipeEngine

from canter.engine import Position, format_move, get_variant, parse_move

# Every line the dialect may print (docs/protocol.md, "CECP-style dialect").
MOVE = r"[A-L]\d{1,2}(?:[-x][A-L]\d{1,2})+"
POINTS = r"(?:1|0|1/2|1/3)"
OUTPUT_GRAMMAR = re.compile(
    rf"^(feature .+|pong(?: .+)?|move {MOVE}|resign|offer draw|Hint: {MOVE}"
    rf"|{POINTS}(?:-{POINTS}){{1,2}} \{{.+\}}"
    rf"|-?\d+ -?\d+ \d+ \d+ {MOVE}(?: {MOVE})*|stat01: \d+ \d+ \d+ \d+ \d+"
    r"|Illegal move \(.+\): .*|Error \(.+\): .+|# .*)$"
)

# White to move, two Men one step from the black castle, two black Men far away.
NEAR_END = "camelot 2/8/4ww4/12/12/12/12/12/12/12/12/12/12/2bb6/8/2 w 0,0 - - 0 30"
# White must capture: F8xF10 takes Black's last piece.
LAST_CAPTURE = "camelot 2/8/10/12/12/12/12/5b6/5w6/12/12/12/4w7/10/8/2 w 0,0 - - 0 30"
# Tri-Camelot, Blue to move: its only move F1xD3xF5 takes Red's and Green's last Men.
TRI_DOUBLE_TAKE = "tri-camelot 4/5/6/5/6/5/6/5/4/5/4/3/4/3/g1/3/r1/b b 0,0,0 - - 0 40"


class Engine(PipeEngine):
    def __init__(self) -> None:
        super().__init__(OUTPUT_GRAMMAR)

    def send(self, *texts: str) -> None:
        self.send_bytes("".join(t + "\n" for t in texts).encode())

    def until(self, pattern: str, timeout: float = 10.0) -> tuple[str, list[str]]:
        """Read until a line matches; returns it and the lines before it."""
        skipped = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.read(max(0.01, deadline - time.monotonic()))
            if re.fullmatch(pattern, line):
                return line, skipped
            skipped.append(line)

    def sync(self, n: int = 99) -> list[str]:
        """ping/pong: every line the engine wrote before the pong."""
        self.send(f"ping {n}")
        return self.until(f"pong {n}")[1]

    def quiet(self, seconds: float) -> None:
        try:
            line = self.lines.get(timeout=seconds)
        except queue.Empty:
            return
        raise AssertionError(f"unexpected output: {line!r}")

    def start(self, *setup: str) -> None:
        self.send("xboard", "protover 2")
        self.until("feature done=1")
        self.send(*setup)


@pytest.fixture
def engine():
    e = Engine()
    yield e
    code = e.close()
    assert code == 0, b"".join(e.stderr).decode(errors="replace")


def engine_move(engine: Engine, pos: Position, timeout: float = 20.0) -> str:
    """Read the engine's move (skipping thinking lines), check it, and play it on `pos`."""
    line, before = engine.until(r"move .+", timeout)
    assert not [b for b in before if b.startswith(("Error", "Illegal"))], before
    text = line.split()[1]
    move = parse_move(pos, text)  # raises on anything illegal
    assert text == format_move(pos.variant, move), "not the canonical spelling"
    pos.push(move)
    return text


def claim_for(pos: Position) -> str:
    """The result claim the rules library's outcome calls for."""
    outcome = pos.outcome()
    first = outcome.ranking[0]
    share = "1" if len(first) == 1 else f"1/{len(first)}"
    points = [share if seat in first else "0" for seat in range(pos.variant.nseats)]
    text = outcome.text()
    return f"{'-'.join(points)} {{{text[0].upper()}{text[1:]}}}"


# ---- handshake -------------------------------------------------------------------------
def test_protover_lists_the_features_and_options(engine):
    engine.send("xboard", "protover 2")
    lines = []
    while not lines or lines[-1] != "feature done=1":
        lines.append(engine.read())
    assert lines[0] == "feature done=0"
    text = " ".join(lines)
    for feature in ("ping=1", "setboard=1", "usermove=1", "time=1", "draw=1", "sigint=0",
                    "sigterm=0", "reuse=1", "analyze=1", "playother=1",
                    'variants="camelot,tri-camelot,cam,camette,chivalry,grand-cam"'):
        assert feature in text.split(), feature
    assert re.search(r'feature myname="canter [^"]+"', text)
    options = [line for line in lines if line.startswith("feature option=")]
    assert 'feature option="Hash -spin 16 1 4096"' in options
    assert ('feature option="Three Seat Search -combo *paranoid /// brs /// brs+ /// maxn"'
            in options)
    assert 'feature option="Rule Exit Duty Persists -check 1"' in options
    assert 'feature option="Resign Threshold -spin 0 0 100000"' in options
    assert not [o for o in options if "UCI_Variant" in o or "Ponder" in o]
    # accepted / rejected and other GUI chatter are silent.
    engine.send("accepted ping", "rejected san", "random", "computer", "name Someone")
    assert engine.sync(1) == []
    # A version that is not ASCII digits is no version 1: the features again, no error.
    engine.send("protover \u00b2")
    assert engine.until("feature done=1")[1][0] == "feature done=0"


# ---- whole games -----------------------------------------------------------------------
def test_an_option_the_game_never_consults_is_set_with_a_comment_line(engine):
    engine.start("option Rule No Move=pass")
    lines = engine.sync(1)
    assert lines == ["# warning: Rule No Move changes nothing in camelot: a side with no "
                     "legal move always ends a two-player game (it loses, or draws "
                     "without enough pieces to win)"]
    engine.send("variant tri-camelot")  # Tri-Camelot's own default: nothing to say
    assert engine.sync(2) == []


def test_force_go_game_to_a_claimed_result(engine):
    """A match manager's loop: force, usermove for the opponent, go for the engine; the
    game ends with the engine's claim, which must be the rules library's verdict."""
    engine.start("new", "option Rule Quiet Limit=24", "sd 2", "force", f"setboard {NEAR_END}",
                 "go")
    pos = Position.from_string(NEAR_END, get_variant("camelot").default_rules.with_option(
        "quiet_limit", 24))
    claim = None
    for _ in range(40):
        engine_move(engine, pos)
        if pos.outcome() is not None:
            claim = engine.read()
            break
        reply = min(pos.legal_moves(), key=lambda m: format_move(pos.variant, m))
        text = format_move(pos.variant, reply)
        pos.push(reply)
        engine.send("force", f"usermove {text}")
        if pos.outcome() is not None:
            assert engine.sync() == []  # force mode: the GUI decides when to ask
            engine.send("go")
            claim = engine.read()
            break
        engine.send("go")
    assert claim is not None, "no result within 40 moves"
    assert claim == claim_for(pos)
    # The engine's two Men are next to the black castle: it should have won there.
    assert claim.startswith("1-0 {White wins: two pieces in the black castle}")
    engine.send("go")  # asked again, it claims again and plays nothing
    assert engine.read() == claim


def test_engine_keeps_the_game_from_the_start(engine):
    """Outside force mode the engine answers each usermove with its own move."""
    engine.start("new", "sd 1")
    pos = Position.start(get_variant("camelot"))
    for ply in range(6):
        moves = sorted(pos.legal_moves(), key=lambda m: format_move(pos.variant, m))
        mine = moves[(ply * 7) % len(moves)]
        engine.send(f"usermove {format_move(pos.variant, mine).lower()}")  # any case works
        pos.push(mine)
        engine_move(engine, pos)
    engine.send("getposition")
    assert engine.read() == "# position " + pos.to_string()


def test_engine_claims_when_the_users_move_ends_the_game(engine):
    engine.start("new", "force", f"setboard {LAST_CAPTURE}", "playother")
    engine.send("usermove F8xF10")
    assert engine.read() == "1-0 {White wins: black has no pieces left}"
    engine.send("usermove F10-F11")
    assert engine.read() == ("Illegal move (the game is over: white wins: black has no pieces "
                             "left): F10-F11")


def test_go_plays_a_compulsory_capture_and_claims(engine):
    engine.start("sd 1", f"setboard {LAST_CAPTURE}", "go")
    assert engine.until("move .+")[0] == "move F8xF10"
    assert engine.read() == "1-0 {White wins: black has no pieces left}"


# ---- take-backs ------------------------------------------------------------------------
def test_undo_and_remove(engine):
    engine.start("new", "sd 1", "usermove C6-C7")
    pos = Position.start(get_variant("camelot"))
    start = pos.to_string()
    pos.push(parse_move(pos, "C6-C7"))
    reply = engine_move(engine, pos)
    assert reply
    # remove: the user's move and the engine's answer go; the user is on move again.
    engine.send("remove", "getposition")
    assert engine.read() == f"# position {start}"
    # undo in force mode, one ply at a time.
    pos = Position.start(get_variant("camelot"))
    pos.push(parse_move(pos, "C6-C7"))
    answer = format_move(pos.variant, pos.legal_moves()[0])
    engine.send("force", "usermove C6-C7", f"usermove {answer}", "undo", "getposition")
    assert engine.read() == f"# position {pos.to_string()}"
    engine.send("undo", "undo")
    assert engine.read() == ("Error (undo needs 1 move to take back, the game since "
                             "new/setboard has 0): undo")
    engine.send("remove")
    assert engine.read().startswith("Error (remove needs 2 moves to take back")


def test_remove_in_tri_camelot_goes_back_to_the_seat_on_move(engine):
    """A round is three moves, but once Red is out it is two: remove gives Green its last
    turn back, not Blue's capture as well."""
    start = "tri-camelot 4/5/6/g4/6/5/5b/2r2/4/2b2/4/3/4/3/2/3/2/1 b 0,0,0 - - 0 0"
    pos = Position.from_string(start)
    engine.start("new", "variant tri-camelot", "force", f"setboard {start}")
    # Green has not moved yet: nothing to give back.
    engine.send("usermove F9xF13", "remove")
    assert engine.read() == ("Error (remove needs 3 moves to take back, the game since "
                             "new/setboard has 1): remove")
    pos.push(parse_move(pos, "F9xF13"))  # Red's last piece: Red is out, Green moves next
    after_capture = pos.to_string()
    engine.send("usermove B15-B13", "usermove K12-J11", "remove", "getposition")
    assert engine.read() == f"# position {after_capture}"
    # A whole round while all three seats play.
    engine.send("new", "variant tri-camelot", "force", "usermove E4-E8", "usermove C14-E16",
                "usermove H17-I18", "usermove E6-E10", "remove", "getposition")
    pos = Position.start(get_variant("tri-camelot"))
    pos.push(parse_move(pos, "E4-E8"))
    assert engine.read() == f"# position {pos.to_string()}"


def test_undo_while_thinking_cancels_the_move(engine):
    engine.start("new", "level 0 60 0", "usermove C6-C7")  # a long think
    time.sleep(0.3)
    engine.send("undo", "getposition")
    assert engine.until(r"# position .+")[0] == "# position " + \
        Position.start(get_variant("camelot")).to_string()
    engine.quiet(0.5)  # the cancelled search never plays


def test_ping_echoes_every_word_it_was_sent(engine):
    engine.start("new", "ping 12 b", "ping")
    assert engine.read() == "pong 12 b"
    assert engine.read() == "pong"


# ---- during a search -------------------------------------------------------------------
def test_ping_is_answered_while_the_engine_thinks(engine):
    engine.start("new", "st 4", "usermove C6-C7", "ping 7")
    started = time.monotonic()
    line, before = engine.until("pong 7")
    # not held back until the move: it comes before the move, well inside the 4 s
    assert not [x for x in before if x.startswith("move ")]
    assert time.monotonic() - started < 3
    engine.send("option Hash=8")  # options wait until the engine has moved
    assert engine.read() == ("Error (option 'Hash' not set: the engine is thinking on its "
                             "move (send ? or force first)): option Hash=8")
    pos = Position.start(get_variant("camelot"))
    pos.push(parse_move(pos, "C6-C7"))
    engine_move(engine, pos)
    assert time.monotonic() - started > 2.0  # the move honours st


def test_question_mark_moves_now(engine):
    # Without the book, which would answer the start position at once.
    engine.start("option OwnBook=0", "new", "force", "st 60", "post", "go")
    time.sleep(0.5)
    started = time.monotonic()
    engine.send("?", "ping 3")
    pos = Position.start(get_variant("camelot"))
    engine_move(engine, pos)
    assert time.monotonic() - started < 5
    assert engine.read() == "pong 3"  # ? is done once the move is out
    engine.send("?")  # nothing to hurry: ignored
    assert engine.sync() == []


def test_thinking_output_only_with_post(engine):
    engine.start("new", "force", "sd 2", "post", "go")
    line, before = engine.until("move .+")
    plies = [int(b.split()[0]) for b in before]
    assert plies and plies[-1] == 2 and all(p in (1, 2) for p in plies)
    engine.send("nopost", "undo", "go")
    line, before = engine.until("move .+")
    assert before == []


# ---- refusals --------------------------------------------------------------------------
def test_illegal_usermoves(engine):
    engine.start("new", "force", f"setboard {LAST_CAPTURE}")
    engine.send("usermove F8-F7")
    assert engine.read() == "Illegal move (a capture is compulsory): F8-F7"
    engine.send("usermove Z9-A1")
    assert engine.read().startswith("Illegal move (unknown cell Z9")
    engine.send("usermove hello")
    assert engine.read().startswith("Illegal move (malformed move 'hello'")
    engine.send("usermove")
    assert engine.read() == "Error (usermove needs exactly one move): usermove"
    engine.send("getposition")  # nothing changed
    assert engine.read() == f"# position {LAST_CAPTURE}"
    engine.send("F8xF10", "getposition")  # a bare move (GUI that refused usermove=1)
    pos = Position.from_string(LAST_CAPTURE)
    pos.push(parse_move(pos, "F8xF10"))
    assert engine.read() == f"# position {pos.to_string()}"


def test_unknown_and_malformed_commands(engine):
    engine.start()
    for sent, answer in [
        ("foo", "Error (unknown command): foo"),
        ("fly me to the moon", "Error (unknown command): fly me to the moon"),
        ("sd x", "Error (sd: depth must be a whole number, not 'x'): sd x"),
        ("sd 0", "Error (sd: depth must be at least 1): sd 0"),
        ("level 40", "Error (level needs MPS BASE INC, e.g. level 40 5 0 or level 0 2:30 1):"
                     " level 40"),
        ("variant chess", "Error (variant must be one of: camelot, tri-camelot, cam, camette,"
                          " chivalry, grand-cam): variant chess"),
        ("setboard camelot nonsense", None),
        ("option Nonsense=3", "Error (unknown option 'Nonsense'): option Nonsense=3"),
        ("option Hash=0", "Error (option 'Hash' takes 1 to 4096): option Hash=0"),
        ("exit", "Error (exit leaves analyze mode, and the engine is not analysing): exit"),
    ]:
        engine.send(sent)
        line = engine.read()
        if answer is None:
            assert line.startswith("Error (position rejected: bad position string:"), line
        else:
            assert line == answer
    assert engine.sync() == []
    engine.send("level 0 0:30 1", "time 3000", "otim 3000", "option Hash=8",
                "option Clear Hash", "option Rule Exit Duty Persists=0", "easy", "hard")
    assert engine.sync() == []  # all well formed: silent


def test_an_over_long_line_is_refused_in_the_cecp_form(engine):
    engine.start()
    engine.send("x" * 70000)
    line = engine.read()
    assert line.startswith("Error (line of 70000 bytes or more dropped"), line
    assert engine.sync() == []


# ---- Tri-Camelot -----------------------------------------------------------------------
def test_tri_camelot_engine_plays_the_other_seats(engine):
    """After new + variant the user has Blue, the engine Red and Green: one usermove gets two
    engine moves."""
    engine.start("new", "variant tri-camelot", "sd 1", "seattime blue 6000",
                 "seattime red 6000", "seattime green 6000")
    pos = Position.start(get_variant("tri-camelot"))
    for _ in range(2):
        assert pos.turn == 0
        mine = min(pos.legal_moves(), key=lambda m: format_move(pos.variant, m))
        engine.send(f"usermove {format_move(pos.variant, mine)}")
        pos.push(mine)
        engine_move(engine, pos)  # red
        engine_move(engine, pos)  # green
    engine.send("getposition")
    assert engine.read() == "# position " + pos.to_string()
    engine.send("seattime white 100")
    assert engine.read().startswith("Error (seattime needs a seat (blue, red, green)")


def test_tri_camelot_force_go_and_claim(engine):
    """One engine per seat the way an arbiter would run it: force, usermove, go."""
    engine.start("new", "variant tri-camelot", "sd 1", "force")
    pos = Position.start(get_variant("tri-camelot"))
    engine.send("usermove E4-E8", "go")
    pos.push(parse_move(pos, "E4-E8"))
    engine_move(engine, pos)
    engine.send("getposition")
    assert engine.read() == "# position " + pos.to_string()
    # Blue's one move takes the last pieces of Red and Green.
    tri_end = Position.from_string(TRI_DOUBLE_TAKE)
    engine.send("force", f"setboard {TRI_DOUBLE_TAKE}", "go")
    assert engine_move(engine, tri_end) == "F1xD3xF5"
    assert engine.read() == "1-0-0 {Blue wins: red and green have no pieces left}"
    assert claim_for(tri_end) == "1-0-0 {Blue wins: red and green have no pieces left}"


# ---- analysis, hints, draws, pondering, resigning -----------------------------------------
def test_analyze_follows_the_position(engine):
    engine.start("new", "post", "analyze")
    line, _ = engine.until(rf"\d+ -?\d+ \d+ \d+ {MOVE}.*")
    engine.send("usermove C6-C7", ".")
    engine.until(r"stat01: .+")
    line, _ = engine.until(rf"\d+ -?\d+ \d+ \d+ {MOVE}.*")
    engine.send("exit", "getposition")
    pos = Position.start(get_variant("camelot"))
    pos.push(parse_move(pos, "C6-C7"))
    # The analysis after the move is of the new position: its line starts with a move of
    # Black's there (a White move of the start would not parse: not Black's piece).
    first = line.split()[4]
    assert parse_move(pos, first) in pos.legal_moves()
    engine.until(r"# position " + re.escape(pos.to_string()))
    engine.quiet(0.5)  # leaving analysis plays no move


def test_a_bad_option_or_position_keeps_the_think_and_the_analysis(engine):
    # Refused before anything stops: the move being thought on still comes...
    engine.start("new", "level 0 10 0", "usermove C6-B5")  # ten minutes: it thinks on
    time.sleep(0.2)
    engine.send("option NoSuchOption=1", "option Hash=-5", "?")  # then: move now
    line, before = engine.until(r"move .+")
    errors = [b for b in before if b.startswith("Error")]
    assert len(errors) == 2 and "unknown option 'NoSuchOption'" in errors[0], before
    # ...and analysis goes on after a position string it refuses.
    engine.send("force", "post", "analyze")
    engine.until(rf"\d+ -?\d+ \d+ \d+ {MOVE}.*")
    engine.send("setboard camelot nonsense", "option NoSuchOption=1", "option Hash=-5")
    for _ in range(3):
        engine.until(r"Error .+")
    engine.send(".")
    engine.until(r"stat01: .+")
    engine.until(rf"\d+ -?\d+ \d+ \d+ {MOVE}.*")
    engine.send("exit")


def test_hint_draw_and_ponder_hit(engine):
    engine.start("new", "sd 2", "hint")
    line = engine.read()
    assert line.startswith("Hint: ")
    parse_move(Position.start(get_variant("camelot")), line.split()[1])
    engine.send("draw")  # even game: declined by silence
    assert engine.sync() == []
    # Pondering: after its move the engine thinks on the move it expects; a hint names it,
    # and playing it is answered by the ponder search.
    engine.send("hard", "usermove C6-C7")
    pos = Position.start(get_variant("camelot"))
    pos.push(parse_move(pos, "C6-C7"))
    engine_move(engine, pos)
    for _ in range(40):  # pondering starts just after the move is out
        engine.send("d")
        state = engine.until(r"# engine plays .+")[0]
        engine.until(r"# position .+")
        if "pondering" in state:
            break
        time.sleep(0.05)
    predicted = state.rpartition("; pondering on ")[2]
    assert state == f"# engine plays black; pondering on {predicted}"
    engine.send("hint")
    assert engine.read() == f"Hint: {predicted}"
    engine.send(f"usermove {predicted}")
    pos.push(parse_move(pos, predicted))
    engine_move(engine, pos)
    engine.send("easy", "getposition")
    assert engine.until(r"# position .+")[0] == "# position " + pos.to_string()


def test_resign_when_enabled_and_hopeless(engine):
    # Black has one Man against four White ones: hopeless, and resigning is switched on.
    lost = "camelot 2/8/10/12/12/12/12/12/12/12/3b8/12/2wwww6/10/8/2 b 0,0 - - 0 30"
    engine.start("option Resign Threshold=200", "sd 1", "force", f"setboard {lost}", "go")
    assert engine.until("resign|move .+")[0] == "resign"
    engine.send("draw", "ping 7")  # too late: the engine has resigned
    assert engine.read() == "pong 7"
    engine.send("option Resign Threshold=0", "go")
    assert engine.until("resign|move .+")[0].startswith("move ")
    engine.send("draw")  # the engine stands worse: it accepts
    assert engine.read() == "offer draw"


def test_end_of_input_lets_the_engine_finish_its_moves():
    """Like `printf ... | canter`: the engine's seats still move, then it exits with 0."""
    proc = subprocess.run(ENGINE_CMD, input="xboard\nnew\nvariant tri-camelot\nsd 1\n"
                          "usermove E4-E8\n", capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["move", "move"]
    pos = Position.start(get_variant("tri-camelot"))
    for text in ["E4-E8"] + [line.split()[1] for line in lines]:
        pos.push(parse_move(pos, text))
    assert pos.turn == 0  # Blue, the user's seat, is to move


def test_chivalry_by_name_and_a_bare_move_on_file_n(engine):
    # `variant chivalry` starts Chivalry; a bare `n5xn7` (a GUI without usermove=1) is a
    # move on the file N that only Chivalry's board has.
    engine.start("variant chivalry", "getposition")
    assert engine.read() == f"# position {Position.start('chivalry').to_string()}"
    position = "chivalry 2/8/10/12/1b12/14/14/14/w13/14/13b/13w/12/10/8/2 w 0,0 - - 0 0"
    engine.send("force", f"setboard {position}", "n5xn7", "getposition")
    pos = Position.from_string(position)
    pos.push(parse_move(pos, "N5xN7"))
    assert engine.read() == f"# position {pos.to_string()}"


# ---- MultiPV, the score a draw offer is judged on, clocks -------------------------------
# White to move wins at once with G15-G16 (two Men in the black castle); the other moves
# lose. Black's lone Man on E2 is one step from the white castle.
WIN_IN_ONE = "camelot w1/4w3/10/12/12/12/12/12/12/12/12/12/12/10/4b3/b1 w 0,0 - - 0 30"


def test_with_multipv_the_engine_goes_by_its_best_line(engine):
    # With MultiPV 3 the third line (a lost one) was printed last and taken for the search's
    # score: the engine resigned a game it wins in one move.
    from canter.engine.search.alphabeta import MAX_DEPTH

    engine.start("new", "force", f"setboard {WIN_IN_ONE}", "option MultiPV=3",
                 "option Resign Threshold=500", "sd 3", "post", "go")
    line, before = engine.until("move .+|resign")
    assert line == "move G15-G16"
    assert engine.read() == "1-0 {White wins: two pieces in the black castle}"
    # one thinking line a depth, the main one: xboard shows no other lines
    assert [b.split()[:2] for b in before] == [["1", "100001"], ["2", "100001"],
                                               ["3", "100001"]]
    # Analysis, its hint and its thinking lines go by the main line too.
    engine.send("undo", "analyze")
    line, before = engine.until(rf"{MAX_DEPTH} .+", timeout=30)
    depths = [int(b.split()[0]) for b in [*before, line]]
    assert depths == list(range(1, MAX_DEPTH + 1))
    time.sleep(0.3)  # (the other lines of the last depth were reported after it)
    engine.send("hint")
    assert engine.until("Hint: .+")[0] == "Hint: G15-G16"
    engine.send("exit")


# Black has one Man against four White ones: its searches score it lost.
LOST = "camelot 2/8/10/12/12/12/12/12/12/12/3b8/12/2wwww6/10/8/2 b 0,0 - - 0 30"


def test_a_draw_offer_is_judged_on_this_games_score(engine):
    # The last search's score outlived the game: `draw` after `new` was accepted at the
    # start on the score of a lost position of the game before.
    engine.start("new", "force", f"setboard {LOST}", "sd 2", "go")
    engine.until("move .+")
    engine.send("new", "draw")
    assert engine.sync(1) == []
    for change in ("undo", f"setboard {NEAR_END}"):
        engine.send("force", f"setboard {LOST}", "go")
        engine.until("move .+")
        engine.send("draw")
        assert engine.read() == "offer draw"
        engine.send("force", change, "draw")
        assert engine.sync(2) == [], change


def test_a_draw_offer_after_the_reply_to_the_engines_move_counts_its_score(engine):
    # The score of the engine's search still speaks for the position after the opponent's
    # reply, as xboard sends an offer; not after further moves.
    engine.start("new", "force", f"setboard {LOST}", "sd 2", "go")
    pos = Position.from_string(LOST)
    engine_move(engine, pos)
    engine.send("force")
    for offer_accepted in (True, False):
        move = next(m for m in sorted(pos.legal_moves(), key=str)
                    if _quiet_after(pos, m))
        text = format_move(pos.variant, move)
        pos.push(move)
        engine.send(f"usermove {text}", "draw")
        assert engine.sync(3) == (["offer draw"] if offer_accepted else [])


def _quiet_after(pos: Position, move) -> bool:
    """The game goes on after `move`."""
    pos.push(move)
    try:
        return pos.outcome() is None
    finally:
        pos.pop()


def test_ping_echoes_a_long_number_in_full(engine):
    # xboard matches the pong with the ping it sent: a cut one ('...') never matched.
    n = "1" * 120
    engine.start("new", f"ping {n} é")
    assert engine.read() == f"pong {n} \\xe9"


def _dialect():
    import io

    from canter.protocol.cecp import CecpDialect
    from canter.protocol.output import Output
    from canter.protocol.session import Session

    stream = io.BytesIO()
    return CecpDialect(Session(), Output(stream)), stream


def test_seattime_is_forgotten_with_the_game_and_outdated_by_a_later_time():
    talk, stream = _dialect()
    talk.handle(["new"])
    talk.handle(["seattime", "black", "100"])  # one second left, in that game
    assert talk._limits().time[1] == 1.0
    for change in (["new"], ["variant", "camelot"], ["setboard", TRI_DOUBLE_TAKE]):
        talk.handle(["seattime", "white", "100"])
        talk.handle(["seattime", "black", "100"])
        talk.handle(change)
        talk.handle(["time", "30000"])
        talk.handle(["otim", "20000"])
        limits = talk._limits()
        nseats = talk.nseats
        assert limits.time == {s: (300.0 if s in talk.seats else 200.0)
                               for s in range(nseats)}, change
    # Within a game the clock last told for a seat counts, whichever command told it.
    talk.handle(["new"])  # the engine plays black
    talk.handle(["seattime", "black", "100"])
    talk.handle(["time", "30000"])
    talk.handle(["seattime", "white", "5000"])
    talk.handle(["otim", "20000"])
    assert talk._limits().time == {0: 200.0, 1: 300.0}
    talk.handle(["seattime", "white", "5000"])
    assert talk._limits().time == {0: 50.0, 1: 300.0}
    talk.handle(["setboard", WIN_IN_ONE])  # the same game: kept
    assert talk._limits().time == {0: 50.0, 1: 300.0}
    assert b"Error" not in stream.getvalue()
