"""Proving Camette positions (canter/engine/search/solve, docs/solve.md): the prover on
hand-counted positions, the independent checker accepting good proofs and rejecting bad
ones, the shipped proof checked (its short claims here, all of it in the slow run, and a
second method, alpha-beta, on a subset), the engine playing from it (in-process and through
real pipes), and `canter solve`."""

from __future__ import annotations

import subprocess
import sys

import pytest
from builders import setup
from click.testing import CliRunner

from canter.adapters.solve.cli import _shipped_text
from canter.adapters.solve.verify import ProofRejected, verify
from canter.cli import main
from canter.engine import Position, Rules, format_move, parse_move
from canter.engine.search.limits import Limits, StopFlag
from canter.engine.search.searcher import Searcher
from canter.engine.search.solve.dfpn import SOLVE_RULES, Prover
from canter.engine.search.solve.proof import extract, format_proof, parse_proof, position_key
from canter.engine.search.solve.solved import Solved, shipped_proof

# White's Man C5 reaches C7 in two moves (C6, B6 or D6, then C7); Black's Man A3 needs two
# (B2, C1) and moves second, so White wins in 3 plies. Black's four replies from A3: A4, B4,
# B3, B2 (A2 is no cell); none comes near White's Man.
RACE = dict(w="C5", b="A3")


def _prove(pos: Position, attacker: int, nodes: int = 10_000):
    prover = Prover()
    assert prover.prove(pos, attacker, nodes=nodes) is True
    return prover, extract(prover, pos)


def after(*moves: str, rules: Rules | None = None) -> Position:
    pos = Position.start("camette", rules)
    for text in moves:
        pos.push(parse_move(pos, text))
    return Position.from_string(pos.to_string(), rules)


# ---- the prover -----------------------------------------------------------------------
def test_the_race_is_won_in_three_plies_and_the_checker_counts_every_position() -> None:
    pos = setup("camette", rules=SOLVE_RULES, **RACE)
    _, proof = _prove(pos, 0)
    assert proof.claims == {position_key(pos): ("white", 3)}
    first, plies = proof.moves[position_key(pos)]
    assert first in {"C5-C6", "C5-B6", "C5-D6"} and plies == 3
    # One position per Black reply where White enters the castle at once.
    assert sorted(p for _, p in proof.moves.values()) == [1, 1, 1, 1, 3]
    checked = verify(format_proof(proof))
    # root, after White's move, Black's 4 replies, 4 castle entries.
    assert (checked.positions, checked.winner_positions) == (10, 5)
    assert (checked.longest, checked.max_quiet, checked.unused) == (3, 2, 0)


def test_the_loser_of_the_race_cannot_be_proved_to_win() -> None:
    pos = setup("camette", rules=SOLVE_RULES, **RACE)
    prover = Prover()
    assert prover.prove(pos, 1, nodes=10_000) is False


def test_an_opening_blunder_loses_at_once() -> None:
    # 1. C3-C4? C5xC3xC1: Black's Man jumps C4, then the Knight C2, into White's castle.
    pos = after("C3-C4", rules=SOLVE_RULES)
    _, proof = _prove(pos, 1)
    assert proof.moves == {position_key(pos): ("C5xC3xC1", 1)}


def test_the_prover_refuses_the_draw_rules() -> None:
    with pytest.raises(ValueError, match="draw rules"):
        Prover().prove(Position.start("camette"), 0, nodes=10)


def test_a_budget_spent_is_neither_proof_nor_disproof() -> None:
    prover = Prover()
    assert prover.prove(Position.start("camette", SOLVE_RULES), 0, nodes=200) is None
    assert prover.stats.nodes == 200


# ---- the checker ----------------------------------------------------------------------
def _race_text() -> str:
    pos = setup("camette", rules=SOLVE_RULES, **RACE)
    return format_proof(_prove(pos, 0)[1])


def test_a_claim_with_a_digit_int_cannot_read_is_rejected() -> None:
    lines = _race_text().splitlines()
    claim = next(n for n, line in enumerate(lines) if line.startswith("claim "))
    lines[claim] = lines[claim].rsplit(" ", 1)[0] + " \u00b2"
    with pytest.raises(ProofRejected, match="a claim is"):
        verify("\n".join(lines))


def test_a_damaged_shipped_proof_is_refused_and_the_search_goes_on(monkeypatch) -> None:
    from canter.engine.search.solve import solved as solved_module

    def broken(data):
        raise EOFError("Compressed file ended before the end-of-stream marker was reached")

    solved_module._shipped.cache_clear()
    monkeypatch.setattr(solved_module, "read_bytes", broken)
    try:
        with pytest.raises(ValueError, match="shipped proof of camette is damaged: EOFError"):
            solved_module.shipped_proof("camette")
        result = Searcher().search(Position.start("camette"), Limits(depth=1),
                                   lambda info: None, StopFlag())
        assert result.best in Position.start("camette").legal_moves()
    finally:
        solved_module._shipped.cache_clear()


def test_a_missing_move_is_rejected() -> None:
    lines = _race_text().splitlines()
    last = [n for n, line in enumerate(lines) if line.endswith(" 1")][-1]
    del lines[last]
    with pytest.raises(ProofRejected, match="no move given"):
        verify("\n".join(lines))


def test_a_move_that_does_not_win_is_rejected_where_the_line_ends() -> None:
    # After A3-B2, White plays B6/C6/D6 to B5 instead of entering: Black's B2-C1 wins, and
    # Black's other replies reach positions the file has no move for.
    text = _race_text()
    proof = parse_proof(text)
    key = next(k for k in proof.moves if k.startswith("camette 1/") and "b2" in k.split()[1])
    move, _ = proof.moves[key]
    bad = text.replace(f"{key} {move} 1", f"{key} {move[:2]}-B5 1")
    assert bad != text
    with pytest.raises(ProofRejected, match="black wins|no move given for camette 1/3/"):
        verify(bad)


def test_an_illegal_move_and_an_understated_length_are_rejected() -> None:
    text = _race_text()
    proof = parse_proof(text)
    root = next(iter(proof.claims))
    move = proof.moves[root][0]
    with pytest.raises(ProofRejected, match="move C5-C7"):
        verify(text.replace(f"{root} {move} 3", f"{root} C5-C7 3"))
    with pytest.raises(ProofRejected, match="more than the 2 claimed"):
        verify(text.replace(f"{root} white 3", f"{root} white 2"))


def test_a_file_without_claims_or_with_bad_lines_is_rejected() -> None:
    with pytest.raises(ProofRejected, match="no claim"):
        verify("# nothing\n")
    with pytest.raises(ProofRejected, match="line 2"):
        verify("# x\ncamette 1/3 w C5-C6\n")


def test_a_line_that_comes_back_to_a_position_is_rejected(monkeypatch) -> None:
    # No small Camette position was found where the loser's only moves shuttle, so the
    # checker is shown a line that returns by making it read every position after the
    # root's Black replies as the root itself (its key function is all it compares).
    import canter.adapters.solve.verify as checker

    text = _race_text()
    root = next(iter(parse_proof(text).claims))
    real = checker._key
    monkeypatch.setattr(checker, "_key",
                        lambda pos: root if pos.turn == 0 else real(pos))
    lines = [line for line in text.splitlines() if not line.endswith(" 1")]
    with pytest.raises(ProofRejected, match="comes back"):
        verify("\n".join(lines))


# ---- the shipped proof ----------------------------------------------------------------
# The opening moves the shipped proof shows to lose for White (docs/solve.md).
LOST_OPENINGS = {"C2-D2", "C2-B2", "C2-C4", "C2-E4", "C2-A4", "B3-B4", "B3-A4", "C3-C4",
                 "C3-D4", "C3-B4", "D3-D4", "D3-E4"}


def _some_claims(text: str, keep) -> str:
    return "\n".join(line for line in text.splitlines()
                     if not line.startswith("claim ") or keep(line)) + "\n"


def test_the_short_claims_of_the_shipped_proof_pass_the_independent_check() -> None:
    # The claims of at most 9 plies (the whole file: test below, marked slow).
    text = _some_claims(_shipped_text("camette"), lambda line: int(line.split()[-1]) <= 9)
    checked = verify(text)
    assert len(checked.claims) >= 30
    assert checked.longest <= 9


@pytest.mark.slow
def test_the_whole_shipped_proof_passes_the_independent_check() -> None:
    checked = verify(_shipped_text("camette"))
    assert len(checked.claims) == 110
    assert checked.unused == 0
    # Every line is short enough for the default quiet limit (100 plies), with room for
    # the root's own counter (at most 2: a root is at most two plies from the start).
    assert checked.max_quiet + 2 < 100


def _alpha_beta_agrees(most: int) -> int:
    """A second method on a subset: canter's alpha-beta searcher (other code, the default
    rules, the proofs off) must find a win for the claimed winner, no longer than claimed,
    from every claim of at most `most` plies. Returns how many claims were searched."""
    proof = parse_proof(_shipped_text("camette"))
    searcher = Searcher()
    searcher.use_proofs = False
    searched = 0
    for key, (winner, plies) in proof.claims.items():
        if plies > most:
            continue
        pos = Position.from_string(f"{key} 0 2")
        assert pos.variant.seats[pos.turn].name == winner  # every claim: the winner moves
        searcher.clear()
        infos = []
        searcher.search(pos, Limits(depth=plies), infos.append, StopFlag())
        found = infos[-1].score_win
        assert found is not None and 0 < found <= (plies + 1) // 2, key
        searched += 1
    return searched


def test_alpha_beta_finds_the_short_wins_of_the_shipped_proof() -> None:
    assert _alpha_beta_agrees(5) == 31


@pytest.mark.slow
def test_alpha_beta_finds_every_win_of_the_shipped_proof_up_to_nine_plies() -> None:
    assert _alpha_beta_agrees(9) == 48


def test_the_shipped_proof_shows_twelve_opening_moves_lose() -> None:
    solved = shipped_proof("camette")
    start = Position.start("camette")
    lost = {format_move(start.variant, m) for m in solved.losing_moves(start)}
    assert lost == LOST_OPENINGS
    assert solved.verdict(start) is None


def test_the_proof_is_set_aside_when_the_quiet_limit_could_cut_it_short() -> None:
    solved = shipped_proof("camette")
    pos = after("C2-E4")
    verdict = solved.verdict(pos)
    assert verdict is not None and verdict.winner == 1 and verdict.plies == 5
    fields = pos.to_string().split()
    near = Position.from_string(" ".join([*fields[:6], "96", "201"]))
    assert solved.verdict(near) is None
    room = Position.from_string(" ".join([*fields[:6], "95", "201"]))
    assert solved.verdict(room) is not None
    other = Position.from_string(pos.to_string(),
                                 pos.rules.with_option("exit_duty_persists", False))
    assert solved.verdict(other) is None
    # A ruling Camette never consults (no passing in a two-player game) leaves it whole.
    idle = Position.from_string(pos.to_string(), pos.rules.with_option("no_move", "pass"))
    assert solved.verdict(idle) == verdict


# ---- the engine plays from the proof --------------------------------------------------
def _search(pos: Position, **limits):
    infos = []
    result = Searcher().search(pos, Limits(**limits), infos.append, StopFlag())
    return result, infos


def test_the_winner_plays_the_proof_move_and_says_so() -> None:
    pos = after("C2-E4")
    result, infos = _search(pos, depth=1)
    assert format_move(pos.variant, result.best) == "B5-C4"
    assert infos[-1].string.startswith("solved: black wins")
    assert infos[-1].score_win == 3  # 5 plies: Black's 3 moves


def test_the_loser_plays_the_move_with_the_longest_proof() -> None:
    pos = after("C2-D2")
    solved = shipped_proof("camette")
    pos.push(solved.verdict(pos).move)
    result, infos = _search(pos, depth=1)
    lengths = {}
    for m in pos.legal_moves():
        pos.push(m)
        found = solved.winning(pos)
        lengths[m] = found[1] if found else 0
        pos.pop()
    assert lengths[result.best] == max(lengths.values())
    assert infos[-1].score_win < 0 and "white loses" in infos[-1].string


def test_at_the_start_the_engine_never_plays_a_move_proved_to_lose() -> None:
    pos = Position.start("camette")
    lost = shipped_proof("camette").losing_moves(pos)
    result, infos = _search(pos, depth=1)
    assert result.best not in lost
    assert format_move(pos.variant, result.best) not in LOST_OPENINGS
    assert any(i.string == "solved: 12 of 22 moves lose by the shipped proof; searching "
               "the others" for i in infos)


def _protocol(options: str = "") -> list[str]:
    script = (f"uci\nsetoption name UCI_Variant value camette\n{options}"
              "position startpos moves C2-E4\ngo depth 1\nquit\n")
    return subprocess.run([sys.executable, "-m", "canter"], input=script, text=True,
                          capture_output=True, timeout=60).stdout.splitlines()


def test_through_the_protocol_the_engine_plays_in_the_proof() -> None:
    out = _protocol()
    info = [line for line in out if line.startswith("info") and "string solved" in line]
    assert info and " score mate 3 " in info[-1]
    assert "bestmove B5-C4" in [line.split(" ponder")[0] for line in out]


def test_usetables_false_turns_the_proof_off() -> None:
    out = _protocol("setoption name UseTables value false\n")
    assert not [line for line in out if "solved" in line]
    assert [line for line in out if line.startswith("info depth 1 ")]
    assert [line for line in out if line.startswith("bestmove ")]


def test_other_games_and_unproved_positions_are_searched_as_before() -> None:
    pos = Position.start("cam")
    result, infos = _search(pos, depth=1)
    assert result.best is not None and not any(i.string for i in infos)
    assert shipped_proof("cam") is None


# ---- canter solve ---------------------------------------------------------------------
def test_canter_solve_reports_the_shipped_proof() -> None:
    result = CliRunner().invoke(main, ["solve", "camette"])
    assert result.exit_code == 0, result.output
    assert "start: not proved" in result.output
    assert "  C3-C4: black wins, at most 1 plies: C5xC3xC1" in result.output
    assert "  C2-E4: black wins, at most 5 plies: B5-C4" in result.output
    assert "  B3-A3: not proved" in result.output


def test_canter_solve_proves_writes_and_checks(tmp_path) -> None:
    path = tmp_path / "p.txt.gz"
    runner = CliRunner()
    result = runner.invoke(main, ["solve", "camette", "--nodes", "300", "--no-lines",
                                  "--write", str(path)])
    assert result.exit_code == 0, result.output
    assert "C3-C4: black to win: proved, 1 plies" in result.output
    assert "start: white to win: budget spent (300 nodes" in result.output
    checked = runner.invoke(main, ["solve", "camette", "--proof", str(path), "--check",
                                   "--no-lines"])
    assert checked.exit_code == 0, checked.output
    assert "no line repeats a position" in checked.output
    assert "C3-C4: black wins, at most 1 plies" in checked.output
    # A run that proves nothing writes nothing: the proof there stays.
    before = path.read_bytes()
    nothing = runner.invoke(main, ["solve", "camette", "--nodes", "100", "--plies", "0",
                                   "--no-lines", "--write", str(path)])
    assert nothing.exit_code == 0, nothing.output
    assert f"nothing proved: {path} not written (the file there is kept)" in nothing.output
    assert path.read_bytes() == before


def test_canter_solve_refuses_bad_input(tmp_path) -> None:
    runner = CliRunner()
    bad = tmp_path / "bad.txt"
    bad.write_text("claim camette 1/1B1/1bbb1/5/1www1/1W1/1 w 0,0 - - white 3\n")
    result = runner.invoke(main, ["solve", "camette", "--proof", str(bad), "--check"])
    assert result.exit_code != 0 and "proof rejected: no move given" in result.output
    # A malformed claim is refused when the proof is read, with or without --check.
    purple = tmp_path / "purple.txt"
    purple.write_text("claim camette 1/1B1/1bbb1/5/1www1/1W1/1 w 0,0 - - purple 3\n")
    for extra in ([], ["--check"]):
        result = runner.invoke(main, ["solve", "camette", "--proof", str(purple), *extra])
        assert result.exit_code != 0, result.output
        assert "the winner 'purple' is no seat of camette (white, black)" in result.output
    result = runner.invoke(main, ["solve", "tri-camelot"])
    assert result.exit_code != 0 and "two-seat games" in result.output
    result = runner.invoke(main, ["solve", "cam"])
    assert result.exit_code != 0 and "no proof is shipped for cam" in result.output
    result = runner.invoke(main, ["solve", "camette", "--write", str(tmp_path / "x")])
    assert result.exit_code != 0 and "--write needs --nodes" in result.output
    # A proof file that cannot be opened is bad usage (2), as every command's missing file.
    for path, why in ((tmp_path / "none.txt", "No such file"), (tmp_path, "directory")):
        result = runner.invoke(main, ["solve", "camette", "--proof", str(path)])
        assert result.exit_code == 2 and why in result.output, result.output
    # A file it did not write is never replaced (plain or gzip); nothing is searched.
    import gzip

    for name, data in (("notes.txt", b"my notes\n"), ("notes.gz", gzip.compress(b"mine"))):
        mine = tmp_path / name
        mine.write_bytes(data)
        result = runner.invoke(main, ["solve", "camette", "--nodes", "300", "--no-lines",
                                      "--write", str(mine)])
        assert result.exit_code != 0 and "is not a proof canter solve wrote" in result.output
        assert mine.read_bytes() == data
    # A proof file that is empty, or a gzip file that is damaged, is no proof.
    empty, broken = tmp_path / "empty.txt", tmp_path / "broken.gz"
    empty.write_text("")
    whole = gzip.compress(b"# canter proof 1\n" * 50)
    broken.write_bytes(whole[:10] + b"\xff" * 6 + whole[16:])  # a bad deflate block
    result = runner.invoke(main, ["solve", "camette", "--proof", str(empty), "--check"])
    assert result.exit_code != 0 and "holds no claim or move line" in result.output
    result = runner.invoke(main, ["solve", "camette", "--proof", str(broken), "--check"])
    assert result.exit_code != 0 and "not a proof file" in result.output
    assert not isinstance(result.exception, (AttributeError, TypeError, ValueError))


def test_canter_solve_refuses_a_proof_of_another_game_or_of_negative_length(tmp_path):
    runner = CliRunner()
    shipped = tmp_path / "camette.txt"
    shipped.write_text(_shipped_text("camette"))
    result = runner.invoke(main, ["solve", "camelot", "--proof", str(shipped), "--no-lines"])
    assert result.exit_code == 1
    assert "a proof of camette, not of camelot (name the game: canter solve camette" \
        in result.output
    # A three-seat game is not offered as the one to name: the prover would refuse it.
    tri = tmp_path / "tri.txt"
    tri.write_text("# canter proof 1\nclaim tri-camelot a b c d e red 3\n")
    result = runner.invoke(main, ["solve", "--proof", str(tri), "--no-lines"])
    assert result.exit_code == 1
    assert "a proof of tri-camelot, not of camette; the prover is for two-seat games" \
        in result.output
    line = "camette 1/1B1/1bbb1/5/1www1/1W1/1 w 0,0 - - B3-C4 "
    for plies in ("-7", "x", "9" * 5000):
        bad = tmp_path / "bad.txt"
        bad.write_text(f"claim {line[:-6]}white 3\n{line}{plies}\n")
        result = runner.invoke(main, ["solve", "camette", "--proof", str(bad), "--no-lines"])
        assert result.exit_code == 1, plies
        assert "proof line 2: the plies" in result.output and "from 0 to 999999" in \
            result.output


def test_canter_solve_reads_a_proof_only_up_to_its_bound(tmp_path):
    # A device that never ends, and a small gzip file that unpacks to far more than any
    # proof: refused at 64 MB, not read until memory runs out.
    import gzip

    runner = CliRunner()
    result = runner.invoke(main, ["solve", "camette", "--proof", "/dev/zero", "--no-lines"])
    assert result.exit_code == 1 and "/dev/zero: more than 64 MB: not a proof file" \
        in result.output
    bomb = tmp_path / "bomb.txt.gz"
    bomb.write_bytes(gzip.compress(b"#" * (65 << 20)))
    assert bomb.stat().st_size < 1 << 20
    result = runner.invoke(main, ["solve", "camette", "--proof", str(bomb), "--no-lines"])
    assert result.exit_code == 1 and "more than 64 MB unpacked: not a proof file" \
        in result.output


@pytest.mark.parametrize("args, flag, needle", [
    (["--nodes", "10", "--proof", "p.txt"], "--proof", "does not go with --nodes"),
    (["--nodes", "10", "--check"], "--check", "does not go with --nodes"),
    (["--each", "10"], "--each", "--each needs --nodes"),
    (["--deeper", "10"], "--deeper", "--deeper needs --nodes"),
])
def test_canter_solve_refuses_options_of_the_other_mode(args, flag, needle) -> None:
    result = CliRunner().invoke(main, ["solve", "camette", *args])
    assert result.exit_code == 2 and flag in result.output and needle in result.output


def test_a_solved_object_reads_a_proof_it_was_given() -> None:
    pos = setup("camette", rules=SOLVE_RULES, **RACE)
    solved = Solved(_prove(pos, 0)[1])
    game = setup("camette", **RACE)
    verdict = solved.verdict(game)
    assert verdict.winner == 0 and verdict.plies == 3
    assert len(solved.line(game)) == 3


def test_an_interrupted_proving_run_writes_what_it_proved(tmp_path):
    # Ctrl-C after the first proof: exit 130, and the file holds that proof, whole.
    import signal

    import pexpect

    out = tmp_path / "part.txt"

    def ctrl_c_as_at_a_terminal() -> None:
        signal.signal(signal.SIGINT, signal.SIG_DFL)

    child = pexpect.spawn(sys.executable, [
        "-m", "canter", "solve", "camette", "--nodes", "20000", "--each", "20000",
        "--deeper", "20000", "--plies", "3", "--no-lines", "--write", str(out)],
        encoding="utf-8", timeout=240, preexec_fn=ctrl_c_as_at_a_terminal)
    child.expect("proved, ")
    child.sendintr()
    child.expect("interrupted: the proofs found so far are kept")
    child.expect(f"wrote {out}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    text = out.read_text()
    assert "(interrupted)" in text
    checked = subprocess.run([sys.executable, "-m", "canter", "solve", "camette", "--proof",
                              str(out), "--check", "--plies", "0"], capture_output=True,
                             text=True, timeout=120)
    assert checked.stdout.startswith("checked "), checked.stdout + checked.stderr
    assert "0 move lines unused" in checked.stdout


# ---- the check: claims for either side, and lines no claim reached ----------------------
AFTER_C3_C4 = "camette 1/1B1/1bbb1/2w2/1w1w1/1W1/1 b 0,0 - -"  # C5xC3xC1 wins for Black
CAMETTE_START = "camette 1/1B1/1bbb1/5/1www1/1W1/1 w 0,0 - -"


def test_a_position_checked_as_blacks_win_does_not_pass_as_whites() -> None:
    # White's C3-C4 loses to C5xC3xC1; the first claim checks the position after it as
    # Black's win, and the second, false, claim must not borrow that as White's.
    text = ("# canter proof 1\n"
            f"claim {AFTER_C3_C4} black 1\n"
            f"claim {CAMETTE_START} white 2\n"
            f"{AFTER_C3_C4} C5xC3xC1 1\n"
            f"{CAMETTE_START} C3-C4 2\n")
    with pytest.raises(ProofRejected, match="ends in 'black wins"):
        verify(text)
    # The same claim for both sides of one position: one of them is false.
    both = ("# canter proof 1\n"
            f"claim {AFTER_C3_C4} black 1\n"
            f"claim {AFTER_C3_C4} white 1\n"
            f"{AFTER_C3_C4} C5xC3xC1 1\n")
    with pytest.raises(ProofRejected):
        verify(both)


def test_checked_answers_leave_out_the_move_lines_no_claim_reached(tmp_path) -> None:
    path = tmp_path / "extra.txt"
    path.write_text("# canter proof 1\n"
                    f"claim {AFTER_C3_C4} black 1\n"
                    f"{AFTER_C3_C4} C5xC3xC1 1\n"
                    f"{CAMETTE_START} C3-C4 2\n")  # unchecked, and false
    checked = CliRunner().invoke(main, ["solve", "--proof", str(path), "--check",
                                        "--plies", "1"])
    assert checked.exit_code == 0, checked.output
    assert "1 move lines unused (and left out of the answers below)" in checked.output
    assert "start: not proved" in checked.output
    assert "C3-C4: black wins, at most 1 plies: C5xC3xC1" in checked.output
    # Unchecked, the file's own word is reported, as documented.
    unchecked = CliRunner().invoke(main, ["solve", "--proof", str(path), "--plies", "0"])
    assert "start: white wins" in unchecked.output


def test_a_proof_of_gzip_files_joined_end_to_end_is_read_whole(tmp_path):
    # `cat a.gz b.gz` is one file to gzip's tools; reading only its first part lost lines.
    import gzip

    text = _shipped_text("camette")
    half = text.index("\n", len(text) // 2) + 1
    joined = tmp_path / "joined.txt.gz"
    joined.write_bytes(gzip.compress(text[:half].encode()) + gzip.compress(text[half:].encode()))
    whole = tmp_path / "whole.txt"
    whole.write_text(text)
    runner = CliRunner()
    answers = [runner.invoke(main, ["solve", "camette", "--proof", str(path), "--plies", "2",
                                    "--no-lines"]) for path in (joined, whole)]
    assert answers[0].exit_code == 0, answers[0].output
    assert answers[0].output.replace(str(joined), "P") == answers[1].output.replace(
        str(whole), "P")
    # The bound is on the whole text, not on each part; and what follows must be gzip too.
    bomb = tmp_path / "bomb.gz"
    bomb.write_bytes(gzip.compress(b"#" * (40 << 20)) * 2)
    result = runner.invoke(main, ["solve", "camette", "--proof", str(bomb), "--no-lines"])
    assert result.exit_code == 1 and "more than 64 MB unpacked" in result.output
    joined.write_bytes(joined.read_bytes() + b"trailing words")
    result = runner.invoke(main, ["solve", "camette", "--proof", str(joined), "--no-lines"])
    assert result.exit_code == 1 and "not a proof file" in result.output


def test_a_node_budget_of_one_expands_one_node():
    # After C3-C4 Black wins at once (C5xC3xC1): the root's one expansion proves it.
    pos = after("C3-C4", rules=SOLVE_RULES)
    prover = Prover()
    assert prover.prove(pos, 1, nodes=1) is True
    assert prover.stats.nodes == 1
    assert prover.prove(Position.start("camette", SOLVE_RULES), 0, nodes=3) is None
    assert prover.stats.nodes == 1 + 3
