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


def test_ctrl_c_exits_130_as_an_interrupt_not_1_as_a_failure():
    # click's own answer was "Aborted!" and 1, which a script cannot tell from a failure.
    import signal
    import subprocess
    import sys
    import time

    for args in (["perft", "9"], ["bench", "--depth", "40"]):
        child = subprocess.Popen(
            [sys.executable, "-m", "canter", *args], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(2.0)  # well into the count or the search
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
        assert child.returncode == 130, (args, out, err)
        assert err.strip() == "Interrupted", (args, err)
