"""What users get wrong with bench/frozen.py and bench/strength.py: one `Error:` line naming
the thing, exit status 2 for usage errors and 1 for failures, no traceback, and nothing
built or deleted. None of these cases reaches pip or a game."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from badinput import FAILURE, ROOT, USAGE, assert_error

BENCH = ROOT / "bench"


def script(name: str, *args: str, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run([sys.executable, str(BENCH / name), *args], capture_output=True,
                          text=True, env=env, timeout=60, cwd=ROOT)


def head() -> str:
    return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()


FROZEN_USAGE = [
    ((), "give a revision (REV) or --list"),
    (("HEAD", "--list"), "--list takes no REV"),
    (("--list", "--dir", "x"), "--list takes no REV and no --dir"),
    (("HEAD", "HEAD~1"), "unrecognized arguments: HEAD~1"),
    (("--bogus",), "unrecognized arguments: --bogus"),
]


@pytest.mark.parametrize("args,needle", FROZEN_USAGE, ids=[" ".join(a) or "none"
                                                            for a, _ in FROZEN_USAGE])
def test_frozen_usage_errors(args, needle, tmp_path) -> None:
    assert_error(script("frozen.py", *args, cache=tmp_path), USAGE, needle)
    assert not (tmp_path / "canter").exists()


def test_frozen_unknown_revisions(tmp_path) -> None:
    for rev in ("no-such-branch", "HEAD~100000", "0" * 40, "--help-me"):
        proc = script("frozen.py", "--", rev, cache=tmp_path)
        assert_error(proc, FAILURE, f"unknown revision {rev!r}", str(ROOT))
    assert not (tmp_path / "canter").exists()


def test_frozen_outside_a_git_checkout(tmp_path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert_error(script("frozen.py", "HEAD", "--repo", str(plain), cache=tmp_path), FAILURE,
                 f"{plain} is not a git checkout")
    assert_error(script("frozen.py", "HEAD", "--repo", str(tmp_path / "gone"), cache=tmp_path),
                 FAILURE, f"{tmp_path / 'gone'}: no such folder")


def test_frozen_refuses_a_dir_that_is_not_a_build_folder(tmp_path) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("keep me")
    assert_error(script("frozen.py", "HEAD", "--dir", str(a_file), cache=tmp_path), FAILURE,
                 f"--dir {a_file} is a file")
    assert a_file.read_text() == "keep me"
    # a folder of someone's files is never cleared to make room for a build
    busy = tmp_path / "project"
    (busy / "src").mkdir(parents=True)
    (busy / "src" / "mine.py").write_text("x = 1")
    assert_error(script("frozen.py", "HEAD", "--dir", str(busy), cache=tmp_path), FAILURE,
                 f"--dir {busy} is not empty and holds no build")
    assert (busy / "src" / "mine.py").read_text() == "x = 1"
    assert not (busy / "venv").exists()


def test_frozen_refuses_a_build_folder_of_another_revision_or_a_broken_one(tmp_path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    (other / "build.json").write_text(json.dumps({"sha": "f" * 40}))
    assert_error(script("frozen.py", "HEAD", "--dir", str(other), cache=tmp_path), FAILURE,
                 f"--dir {other} holds the build of ffffffffffff, not of HEAD")
    lost = tmp_path / "lost"
    lost.mkdir()
    (lost / "build.json").write_text(json.dumps({"sha": head()}))
    assert_error(script("frozen.py", "HEAD", "--dir", str(lost), cache=tmp_path), FAILURE,
                 "has lost", "delete the folder to build it again")


STRENGTH_USAGE = [
    ((), "the following arguments are required: --base"),
    (("--base", "HEAD", "--tc", "10+0.1", "--st", "1"), "--st: not allowed with argument --tc"),
    (("--base", "HEAD", "--tc", "ten"), "--tc: time control 'ten' is not"),
    (("--base", "HEAD", "--tc", "inf"), "--tc inf: a strength test needs a clock"),
    (("--base", "HEAD", "--tc", "0+0"), "the time must be above 0"),
    (("--base", "HEAD", "--st", "0"), "--st must be a number above 0, not '0'"),
    (("--base", "HEAD", "--st", "nan"), "--st must be a number above 0, not 'nan'"),
    (("--base", "HEAD", "--st", "fast"), "--st must be a number above 0, not 'fast'"),
    (("--base", "HEAD", "--nodes", "1.5"), "--nodes must be a number above 0, not '1.5'"),
    (("--base", "HEAD", "--concurrency", "0"), "--concurrency must be at least 1, not 0"),
    (("--base", "HEAD", "--concurrency", "two"), "--concurrency: invalid int value: 'two'"),
    (("--base", "HEAD", "--games", "1"), "--games must be at least 2"),
    (("--base", "HEAD", "--variant", "tri-camelot", "--games", "1000"),
     "--games must be a positive multiple of 3 for tri-camelot"),
    (("--base", "HEAD", "--variant", "tri-camelot", "--games", "0"),
     "--games must be a positive multiple of 3"),
    (("--base", "HEAD", "--variant", "chess"), "--variant: invalid choice: 'chess'"),
    (("--base", "HEAD", "--variant", "grand-cam", "--games", "1"),
     "--games must be at least 2"),  # (Grand Cam is tested a team each, in pairs of games)
    (("--base", "HEAD", "--variant", "grand-camelot"),
     "--variant: invalid choice: 'grand-camelot'"),
    (("--base", "HEAD", "--timemargin", "lots"), "--timemargin: invalid int value"),
    (("--base", "HEAD", "--timemargin", "-5"), "--timemargin must be at least 0 ms, not -5"),
]


@pytest.mark.parametrize("args,needle", STRENGTH_USAGE,
                         ids=[" ".join(a[2:]) or "none" for a, _ in STRENGTH_USAGE])
def test_strength_usage_errors(args, needle, tmp_path) -> None:
    proc = script("strength.py", *args, cache=tmp_path)
    assert_error(proc, USAGE, needle)
    assert proc.stdout == ""  # refused before a build or a match
    assert not (tmp_path / "canter").exists()


def test_strength_with_an_unknown_base_builds_and_plays_nothing(tmp_path) -> None:
    proc = script("strength.py", "--base", "no-such-tag", cache=tmp_path)
    assert_error(proc, FAILURE, "unknown revision 'no-such-tag'")
    assert proc.stdout == ""
    assert not (tmp_path / "canter").exists()
