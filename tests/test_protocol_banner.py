"""The one-line banner of a bare `canter` on a terminal, as chess engines print one; and
nothing at all before the first command when stdin is a pipe (GUIs and arbiters)."""

from __future__ import annotations

import subprocess
import sys

import pexpect

from canter import __version__

BANNER = (f"canter {__version__} by the canter developers: type 'uci' or 'xboard', "
          "'help' for commands")


def test_a_terminal_gets_the_banner_then_the_protocol():
    child = pexpect.spawn(sys.executable, ["-m", "canter"], timeout=20, encoding="utf-8")
    try:
        child.expect_exact(BANNER)
        child.expect("\r\n")
        assert child.before == ""  # the banner is the whole first line
        child.sendline("uci")
        child.expect("uciok")
        child.sendline("isready")
        child.expect("readyok")
        child.sendline("quit")
        child.expect(pexpect.EOF)
        assert BANNER not in child.before  # said once
    finally:
        child.close()
    assert child.exitstatus == 0


def test_a_terminal_banner_before_the_xboard_dialect():
    child = pexpect.spawn(sys.executable, ["-m", "canter"], timeout=20, encoding="utf-8")
    try:
        child.expect_exact(BANNER)
        child.sendline("xboard")
        child.sendline("ping 4")
        child.expect("pong 4")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_a_pipe_gets_no_banner():
    proc = subprocess.run([sys.executable, "-m", "canter"], input=b"isready\n",
                          capture_output=True, timeout=30)
    assert proc.stdout == b"readyok\n"
    assert proc.returncode == 0


def test_a_pipe_with_no_commands_gets_no_output_at_all():
    proc = subprocess.run([sys.executable, "-m", "canter"], input=b"",
                          capture_output=True, timeout=30)
    assert (proc.stdout, proc.returncode) == (b"", 0)
