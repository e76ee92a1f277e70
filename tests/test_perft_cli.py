"""`canter perft` on the command line: counts, divide, positions, moves and bad input."""

from click.testing import CliRunner

from canter.adapters.measure.cli import perft


def run(*args):
    return CliRunner().invoke(perft, list(args))


def test_counts_and_divide():
    out = run("2").output
    assert "nodes 10026" in out
    lines = run("2", "--divide").output.splitlines()
    rows = [line for line in lines if ": " in line]
    assert len(rows) == 100 and sum(int(r.split(": ")[1]) for r in rows) == 10026


def test_variant_moves_and_position():
    assert "nodes 36" in run("1", "--variant", "tri-camelot").output
    moved = run("1", "--moves", "D6-F8 H11-F9").output
    assert "nodes" in moved and "nodes 100" not in moved
    s = "camelot 2/8/10/12/12/12/12/5b6/5w6/12/12/12/4w7/10/8/2 w 0,0 - - 0 30"
    assert "nodes 1" in run("1", "--position", s).output.splitlines()


def test_bad_input_is_named():
    negative = run("-1")
    assert negative.exit_code == 2 and "not in the range" in negative.output
    illegal = run("1", "--moves", "D6-D9")
    assert illegal.exit_code == 2 and "illegal move D6-D9" in illegal.output
    broken = run("1", "--position", "camelot 2/8 w")
    assert broken.exit_code == 2 and "bad position string" in broken.output
