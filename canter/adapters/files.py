"""Files the tools write (`show`'s pictures, `transcript record`'s transcript, `play`'s
game record): checked before any work is done, and written whole or not at all.

A file is written to a temporary file in the same folder, flushed to disk and renamed
over the target, so that a crash or a kill at any moment leaves the old content or the new
one, never half a file over a user's old file. Something that is not a regular file
(`/dev/stdout`, a named pipe) is written to directly: it cannot be renamed over.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile


class OutputPathError(ValueError):
    """An output path that cannot be written; the message names the path and why."""


class InputTooLarge(ValueError):
    """An input file larger than any of its kind: a device or pipe that never ends
    (`/dev/zero`), or a file given by mistake."""


MB = 1 << 20
# Far above any real file of each kind; a bound on what a device that never ends makes a
# tool read (without one, `--openings /dev/zero` read until memory ran out).
MAX_TEXT_INPUT = 64 * MB  # openings, transcripts, books, proofs
MAX_RECORDS_INPUT = 1024 * MB  # game records (a long match with comments: tens of MB)


def read_at_most(f, limit: int, what: str) -> bytes:
    """All of an open binary file, or InputTooLarge ("more than N MB: not WHAT") once it
    holds more than `limit` bytes; never reads more than `limit` + 1."""
    data = f.read(limit + 1)
    if len(data) > limit:
        raise InputTooLarge(f"more than {limit // MB} MB: not {what}")
    return data


def _nearest_existing(path: str) -> str:
    """`path` itself or the closest folder above it that exists ('' if none does)."""
    above = path
    while above and not os.path.lexists(above):
        parent = os.path.dirname(above)
        if parent == above:
            break
        above = parent
    return above


def is_special(path: str) -> bool:
    """An existing target that is not a regular file (a device, a pipe): written in place."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def check_output_file(path: str, *, append: bool = False, regular: bool = False) -> None:
    """Whether `path` can be written as a file: not empty, not a folder, in a folder that
    exists and where a file can be made. With `append`, opening the file itself for
    appending is tried (a file made for the try is removed again); with `regular`, an
    existing target that is not a regular file (a device, a pipe) is refused. OutputPathError
    says what is wrong."""
    if not path:
        raise OutputPathError("the file name is empty")
    if os.path.isdir(path):
        raise OutputPathError(f"{path} is a folder, not a file")
    if is_special(path):
        if regular:
            raise OutputPathError(f"{path} is not a regular file")
        return
    folder = os.path.dirname(os.path.realpath(path)) or "."
    if not os.path.isdir(folder):
        above = _nearest_existing(folder)
        if above and os.path.lexists(above) and not os.path.isdir(above):
            raise OutputPathError(f"{path}: {above} is a file, not a folder")
        raise OutputPathError(f"{path}: the folder {os.path.dirname(path) or '.'} "
                              "does not exist")
    try:
        if append:
            exists = os.path.exists(path)
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644))
            if not exists:
                os.unlink(path)
        else:
            fd, temporary = tempfile.mkstemp(dir=folder, prefix=".canter-", suffix=".tmp")
            os.close(fd)
            os.unlink(temporary)
    except OSError as exc:
        raise OutputPathError(f"{path}: cannot be written ({exc.strerror})") from None


def starts_with_mark(head: bytes, marks: tuple[bytes, ...]) -> bool:
    """Does the first or second line of `head` (a file's first bytes) start with one of
    `marks` (a page's mark comes after its doctype)?"""
    first_lines = [line.strip() for line in head.lstrip().split(b"\n", 2)[:2]]
    return any(line.startswith(mark) for line in first_lines for mark in marks)


def check_own_file(path: str, marks: tuple[bytes, ...], what: str) -> None:
    """Whether an existing `path` may be replaced: only when it is missing, empty (or
    blank), not a regular file (a device, a pipe: written in place), or `what` by its
    beginning (its first or second line starts with one of `marks`: the command's own
    output of an earlier run, a page's mark coming after its doctype). Anything else is a
    user's file given by mistake: OutputPathError, and the file is left as it is."""
    if not os.path.lexists(path) or is_special(path) or os.path.isdir(path):
        return  # (a folder is check_output_file's to refuse)
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError as exc:
        raise OutputPathError(f"{path}: cannot be read to see whether it may be replaced "
                              f"({exc.strerror})") from None
    if not head.strip() or starts_with_mark(head, marks):
        return
    raise OutputPathError(f"{path} exists and is not {what}; it is left as it is: give "
                          "another file, or remove it first")


def check_output_folder(path: str) -> None:
    """Whether files can be written into the folder `path`, which is made (with the
    folders above it) by `make_output_folder` only when the work is done: not empty, no
    file in the way, and the closest existing folder writable. OutputPathError says what
    is wrong."""
    if not path:
        raise OutputPathError("the folder name is empty")
    above = _nearest_existing(path)
    if above and os.path.lexists(above) and not os.path.isdir(above):
        where = "" if above == path else f"{path}: "
        raise OutputPathError(f"{where}{above} is a file, not a folder")
    folder = above or "."
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputPathError(f"{path}: cannot be written (no permission in {folder})")


def make_output_folder(path: str) -> None:
    """Make the folder `path` (and the folders above it) unless it exists."""
    os.makedirs(path, exist_ok=True)


def replace_file(path: str, text: str | bytes) -> None:
    """Write `text` (UTF-8; bytes as they are) to `path` through a temporary file renamed
    into place. A symbolic link is followed: the file it points to is the one replaced.
    OSError if it cannot be written (the old file, if any, is then left as it was)."""
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    if is_special(path):
        if stat.S_ISFIFO(os.stat(path).st_mode):
            # A pipe nobody reads would block the open for ever: ask without waiting.
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as exc:
                if exc.errno == errno.ENXIO:
                    raise OSError(errno.ENXIO, "a pipe that nobody reads", path) from None
                raise
            os.set_blocking(fd, True)
            with open(fd, "wb") as f:
                f.write(data)
            return
        with open(path, "wb") as f:
            f.write(data)
        return
    target = os.path.realpath(path)
    folder = os.path.dirname(target)
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(target)}.",
                                     suffix=".tmp")
    try:
        try:
            write_all(fd, data)
            if os.path.exists(target):
                mode = os.stat(target).st_mode & 0o7777
            else:
                mask = os.umask(0o022)  # reading the mask means setting it: put it back
                os.umask(mask)
                mode = 0o666 & ~mask
            os.fchmod(fd, mode)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    try:  # the rename itself is made durable by syncing the folder
        dfd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(dfd)
    finally:
        os.close(dfd)


def write_all(fd: int, data: bytes) -> None:
    """os.write until every byte is written (one call may write fewer)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def same_file(a: str, b: str) -> bool:
    """Whether two paths name one file (through links and `./`), existing or not."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)
