"""Install a git revision of canter into its own virtualenv, as an opponent for strength tests.

    python bench/frozen.py REV [--dir DIR]     # prints the engine command, e.g.
                                               # ~/.cache/canter/builds/<sha>/canter
    python bench/frozen.py --list              # the builds present

REV is anything `git rev-parse` reads: a sha, a tag, `HEAD~3`, `main`. The revision is
exported with `git archive` (no worktree, no uncommitted edits) into DIR/src and installed
with pip, not editable, into DIR/venv: later edits of the checkout do not change it. A build
is complete once its marker DIR/build.json is written (last); a complete build is reused.
The engine command is DIR/canter, which runs the build's own `canter` in Python's isolated
mode: a PYTHONPATH (or any PYTHON* variable, the user's site-packages, the current folder)
of whoever starts it cannot put other code in place of the build's. Without that, a test
run with PYTHONPATH pointing at a checkout played that checkout against itself.
Default DIR: $XDG_CACHE_HOME/canter/builds/<full sha> (~/.cache when unset).
"""

from __future__ import annotations

import argparse
import fcntl
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent
MARKER = "build.json"
# Written before anything else of a build: a folder holding it (and no marker) is a build
# that was cut short, which may be cleared and done again.
STARTED = ".frozen-build"
PIP_LINES = 5  # lines of pip's output quoted when it fails
LAUNCHER = "canter"  # DIR/canter: the engine command (`write_launcher`)


class FreezeError(Exception):
    """A build that cannot be made; the message is one line naming the thing."""


@dataclass(frozen=True)
class Build:
    sha: str
    rev: str
    directory: Path

    @property
    def command(self) -> Path:
        """The engine command: the installed one, run isolated (`write_launcher`)."""
        return self.directory / LAUNCHER

    @property
    def installed(self) -> Path:
        """The console script pip installed."""
        return self.directory / "venv" / "bin" / "canter"

    @property
    def python(self) -> Path:
        """The build's interpreter (run it with -I, so that it imports the build)."""
        return self.directory / "venv" / "bin" / "python"


def write_launcher(build: Build) -> None:
    """Write DIR/canter, which runs the installed script with `python -I`: the variables
    that change what Python imports (PYTHONPATH, PYTHONHOME, ...), the user's site-packages
    and the current folder are all ignored, so the engine is the build's code wherever and
    by whomever it is started. Written again whenever it is missing or out of date (builds
    made before it existed get it on their next use)."""
    text = ("#!/bin/sh\n"
            "# The frozen build's engine, isolated from the caller's Python environment.\n"
            f"exec {shlex.quote(str(build.python))} -I "
            f"{shlex.quote(str(build.installed))} \"$@\"\n")
    path = build.command
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except OSError:
        pass
    temporary = path.with_name(LAUNCHER + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.chmod(0o755)
    temporary.replace(path)


def builds_root() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "canter" / "builds"


def _git(repo: Path, *args: str, binary: bool = False) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(repo), *args], capture_output=True,
                              text=not binary, check=False)
    except FileNotFoundError:
        raise FreezeError("git is not installed (no `git` on PATH)") from None


def resolve(rev: str, repo: Path = CHECKOUT) -> str:
    """The full sha of the commit REV names in REPO."""
    if not repo.is_dir():
        raise FreezeError(f"{repo}: no such folder")
    if _git(repo, "rev-parse", "--git-dir").returncode != 0:
        raise FreezeError(f"{repo} is not a git checkout")
    if rev.startswith("-"):  # would be read as an option of rev-parse
        raise FreezeError(f"unknown revision {rev!r} in {repo}")
    done = _git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}")
    if done.returncode != 0 or not done.stdout.strip():
        raise FreezeError(f"unknown revision {rev!r} in {repo}")
    return done.stdout.strip()


def read_marker(directory: Path) -> dict | None:
    try:
        data = json.loads((directory / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and "sha" in data else None


def _export(repo: Path, sha: str, src: Path) -> None:
    done = _git(repo, "archive", "--format=tar", sha, binary=True)
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise FreezeError(f"git archive {sha[:12]} failed: {message[-1] if message else '?'}")
    src.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(done.stdout)) as archive:
        archive.extractall(src, filter="data")


# pip's closing words after a failed build, the same for every failure: the lines above
# them say what went wrong.
PIP_TRAILER = ("note: This error originates", "error: subprocess-exited-with-error",
               "[end of output]", "╰─> See above", "│ exit code", "hint: See above")


def last_lines(output: str) -> list[str]:
    lines = [line.strip() for line in output.splitlines()]
    return [line for line in lines if line and not line.startswith(PIP_TRAILER)][-PIP_LINES:]


def _run_step(command: list[str], what: str) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "".join(f"\n  {line}" for line in last_lines(done.stdout + done.stderr))
        raise FreezeError(f"{what} failed (exit code {done.returncode}); its last lines:{tail}")


def _log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def freeze(rev: str, directory: Path | None = None, repo: Path = CHECKOUT,
           log=_log) -> Build:
    """Build REV (or reuse its complete build) and return it."""
    sha = resolve(rev, repo)
    directory = (directory or builds_root() / sha).expanduser().absolute()
    build = Build(sha, rev, directory)
    if directory.exists() and not directory.is_dir():
        raise FreezeError(f"--dir {directory} is a file, not a folder")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        # Two strength tests started at once on one base build it once.
        lock = open(directory / ".lock", "a")  # held by the `with` below
    except OSError as exc:  # a folder that cannot be made or written (/proc, read-only)
        raise FreezeError(f"--dir {directory}: cannot be used as a build folder "
                          f"({exc.strerror or exc})") from None
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        marker = read_marker(directory)
        if marker is not None:
            if marker["sha"] != sha:
                raise FreezeError(f"--dir {directory} holds the build of {marker['sha'][:12]}, "
                                  f"not of {rev} ({sha[:12]}): give another --dir")
            if not build.installed.exists():
                raise FreezeError(f"{directory}: the build of {sha[:12]} has lost "
                                  f"{build.installed}: delete the folder to build it again")
            write_launcher(build)
            return build
        others = {p.name for p in directory.iterdir()} - {".lock", STARTED}
        if others and not (directory / STARTED).exists():
            raise FreezeError(f"--dir {directory} is not empty and holds no build: "
                              "give a new or empty folder")
        (directory / STARTED).touch()
        for name in ("src", "venv"):  # what a build cut short left behind
            shutil.rmtree(directory / name, ignore_errors=True)
        (directory / (MARKER + ".tmp")).unlink(missing_ok=True)
        log(f"Building {rev} ({sha[:12]}) in {directory} ...")
        started = time.monotonic()
        # from the top: `git archive` run in a subfolder would export only that subfolder
        top = _git(repo, "rev-parse", "--show-toplevel").stdout.strip() or str(repo)
        _export(Path(top), sha, directory / "src")
        _run_step([sys.executable, "-m", "venv", str(directory / "venv")],
                  f"python -m venv {directory / 'venv'}")
        _run_step([str(directory / "venv" / "bin" / "pip"), "install", "--quiet",
                   str(directory / "src")],
                  f"pip install of {rev} ({sha[:12]}) into {directory / 'venv'}")
        if not build.installed.exists():
            raise FreezeError(f"{rev} ({sha[:12]}) installs no `canter` command "
                              f"({build.installed} is missing)")
        write_launcher(build)
        subject = _git(repo, "log", "-1", "--format=%s", sha).stdout.strip()
        marker = {"sha": sha, "rev": rev, "subject": subject, "repo": str(repo),
                  "built": time.strftime("%Y-%m-%d %H:%M:%S"),
                  "python": sys.version.split()[0], "command": str(build.command)}
        temporary = directory / (MARKER + ".tmp")
        temporary.write_text(json.dumps(marker, indent=2) + "\n", encoding="utf-8")
        temporary.replace(directory / MARKER)
        (directory / STARTED).unlink()
        log(f"Built in {time.monotonic() - started:.1f} s")
    return build


def list_builds(root: Path) -> list[str]:
    """One line per build folder under ROOT: sha, when built, from which name, subject."""
    if not root.is_dir():
        return []
    lines = []
    for directory in sorted(root.iterdir()):
        if not directory.is_dir():
            continue
        marker = read_marker(directory)
        if marker is None:
            lines.append(f"{directory.name[:12]}  (incomplete)  {directory}")
        else:
            lines.append(f"{marker['sha'][:12]}  {marker.get('built', '?')}  "
                         f"{marker.get('rev', '?')}: {marker.get('subject', '')}  "
                         f"{directory / LAUNCHER}")
    return lines


class Parser(argparse.ArgumentParser):
    """Usage errors as the project's commands give them: one `Error:` line, exit status 2."""

    def error(self, message: str):
        self.print_usage(sys.stderr)
        self.exit(2, f"Error: {message}\n")


def main(argv: list[str] | None = None) -> int:
    parser = Parser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", nargs="?", metavar="REV",
                        help="a git revision: sha, tag, HEAD~3, main")
    parser.add_argument("--dir", type=Path, default=None,
                        help="the build folder (default: BUILDS/<full sha>, BUILDS = "
                             f"{builds_root()})")
    parser.add_argument("--list", action="store_true", help="list the builds present")
    parser.add_argument("--repo", type=Path, default=CHECKOUT,
                        help="the git checkout to take REV from (default: this one)")
    args = parser.parse_args(argv)
    if args.list:
        if args.rev is not None or args.dir is not None:
            parser.error("--list takes no REV and no --dir")
        root = builds_root()
        lines = list_builds(root)
        print("\n".join(lines) if lines else f"no builds in {root}")
        return 0
    if args.rev is None:
        parser.error("give a revision (REV) or --list")
    try:
        build = freeze(args.rev, args.dir, args.repo)
    except FreezeError as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 1
    print(build.command)
    return 0


if __name__ == "__main__":
    sys.exit(main())
