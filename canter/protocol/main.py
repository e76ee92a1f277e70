"""`canter` with no arguments: read commands from stdin, answer on stdout, until quit/EOF.

The first command chooses the dialect: `xboard` selects the CECP-style one (when this build
has it); anything else is UCI-style, and that first command is then carried out as one.
Start-up cost is a benchmark, so this module imports only the protocol's own small modules;
the rules library is loaded by the first command that needs it.
"""

from __future__ import annotations

import importlib
import os
import sys
import traceback
from typing import BinaryIO

from canter.protocol.lines import LineTooLong, echo, error_text, fd_reader, read_lines, tokenize
from canter.protocol.output import Output, diagnostic
from canter.protocol.session import Session

# first command -> (module, class) of the dialect it selects
DIALECTS = {"xboard": ("canter.protocol.cecp", "CecpDialect")}


def choose_dialect(first: str, session: Session, out: Output):
    entry = DIALECTS.get(first.lower())
    if entry is not None:
        module_name, attr = entry
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
        else:
            return getattr(module, attr)(session, out)
    from canter.protocol.uci import UciDialect

    return UciDialect(session, out)


def banner() -> str:
    from canter import __version__

    return (f"canter {__version__} by the canter developers: type 'uci' or 'xboard', "
            "'help' for commands")


def _on_terminal(fd: int) -> bool:
    try:
        return os.isatty(fd)
    except OSError:
        return False


def run(stdin_fd: int | None = None, stdout: BinaryIO | None = None) -> int:
    """Serve one client; the exit code is 0 after `quit` or end of input."""
    if stdin_fd is None:
        stdin_fd = sys.stdin.fileno()
    out = Output(stdout)
    if _on_terminal(stdin_fd):
        # A person at a terminal learns what this silent process is; a GUI or arbiter
        # (stdin a pipe) sees nothing before its first command, as the protocol promises.
        out.line(banner())
    session = Session()
    dialect = None
    eof = True
    for line in read_lines(fd_reader(stdin_fd)):
        if isinstance(line, LineTooLong):
            # Said in the dialect's own error form once one is chosen.
            if dialect is not None:
                dialect.input_error(str(line))
            else:
                out.line("info string error: " + str(line))
            continue
        if dialect is None and line.startswith("\ufeff"):
            line = line[1:]  # a byte-order mark some Windows tools write before the first line
        tokens = tokenize(line)
        if not tokens:
            continue
        if dialect is None:
            dialect = choose_dialect(tokens[0], session, out)
        try:
            go_on = dialect.handle(tokens)
        except Exception as exc:  # a bug must cost one command, not the game
            diagnostic(traceback.format_exc())
            out.line(f"info string error: internal error in '{echo(tokens[0])}': "
                     f"{type(exc).__name__}: {error_text(echo(str(exc), 200))}")
            go_on = True
        if not go_on or out.closed:
            eof = False
            break
    if dialect is not None:
        dialect.close(eof)
    return 0
