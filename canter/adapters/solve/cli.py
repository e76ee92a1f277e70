"""`canter solve GAME`: what the shipped proof says (value of the start, the opening moves
proved, principal lines), `--check` to verify a proof independently, `--nodes` to run the
prover again (and `--write` its proof). docs/solve.md."""

from __future__ import annotations

import gzip
import os
import sys
import time
import zlib

import click

from canter.adapters.files import OutputPathError, check_output_file, replace_file
from canter.engine import VARIANT_NAMES, Position, format_move


def _load(path: str | None, game: str):
    from canter.engine.search.solve.proof import parse_proof
    from canter.engine.search.solve.solved import Solved, shipped_proof

    if path is None:
        try:
            solved = shipped_proof(game)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
        if solved is None:
            raise click.ClickException(f"no proof is shipped for {game}")
        return solved, f"shipped {game} proof", _shipped_text(game)
    text = _read(path)
    try:
        proof = parse_proof(text)
    except ValueError as exc:
        raise click.ClickException(f"{path}: {exc}") from None
    if not proof.claims and not proof.moves:
        raise click.ClickException(f"{path}: holds no claim or move line (an empty file, or "
                                   "a run that proved nothing)")
    games = {key.split()[0] for key in (*proof.claims, *proof.moves)}
    if game not in games:
        other = ", ".join(sorted(games))
        # Name a game to try only where the prover can answer it: two seats.
        known = sorted(g for g in games if g in VARIANT_NAMES
                       and Position.start(g).variant.nseats == 2)
        hint = (f" (name the game: canter solve {known[0]} --proof {path})" if known
                else "; the prover is for two-seat games")
        raise click.ClickException(f"{path}: a proof of {other}, not of {game}{hint}")
    return Solved(proof), path, text


def _read(path: str) -> str:
    from canter.adapters.files import MAX_TEXT_INPUT
    from canter.adapters.params import read_input_file
    from canter.engine.search.solve.proof import read_bytes

    data = read_input_file(path, "--proof", "a proof file")
    try:
        return read_bytes(data, MAX_TEXT_INPUT)
    except UnicodeDecodeError:
        raise click.ClickException(f"{path}: not a proof file (text or gzip)") from None
    except ValueError as exc:  # (unpacked past the bound)
        raise click.ClickException(f"{path}: {exc}: not a proof file") from None
    except (EOFError, gzip.BadGzipFile, zlib.error):
        raise click.ClickException(f"{path}: not a proof file (text or gzip)") from None


def _shipped_text(game: str) -> str:
    from importlib import resources

    from canter.engine.search.solve.proof import read_bytes

    path = resources.files("canter.engine.search.solve").joinpath("proofs", f"{game}.txt.gz")
    return read_bytes(path.read_bytes())


def _spell(pos: Position, moves: list) -> str:
    pos = pos.copy()
    out = []
    for m in moves:
        out.append(format_move(pos.variant, m))
        pos.push(m)
    return " ".join(out)


def _verdict_text(solved, pos: Position, lines: bool) -> str:
    verdict = solved.verdict(pos)
    if verdict is None:
        return "not proved"
    name = pos.variant.seats[verdict.winner].name
    text = f"{name} wins, at most {verdict.plies} plies"
    if lines:
        text += ": " + _spell(pos, solved.line(pos))
    return text


def report(solved, game: str, depth: int, lines: bool) -> list[str]:
    """The start's value and, below it, the positions up to `depth` plies in."""
    start = Position.start(game)
    out = [f"start: {_verdict_text(solved, start, lines)}"]
    if depth < 1 or solved.verdict(start) is not None:
        return out
    frontier = [((), start)]
    for ply in range(1, depth + 1):
        nxt = []
        total = wins = 0
        rows = []
        for line, pos in frontier:
            for move in pos.legal_moves():
                child = pos.copy()
                child.push(move)
                seq = (*line, format_move(pos.variant, move))
                total += 1
                text = _verdict_text(solved, child, lines)
                if text == "not proved":
                    nxt.append((seq, child))
                    if ply == 1:
                        rows.append(f"  {' '.join(seq)}: not proved")
                    continue
                wins += 1
                rows.append(f"  {' '.join(seq)}: {text}")
        below = "" if ply == 1 else ", below the unproved positions"
        out.append(f"after {ply} {'ply' if ply == 1 else 'plies'}{below}: {wins} of {total} "
                   "positions proved")
        out.extend(rows)
        frontier = nxt
    return out


@click.command()
@click.argument("game", type=click.Choice(VARIANT_NAMES), default="camette")
@click.option("--proof", "proof_path", default=None, metavar="FILE",
              help="Read this proof file (text or gzip) instead of the shipped one.")
@click.option("--check", is_flag=True,
              help="Verify the proof independently (rules library only) before reporting.")
@click.option("--plies", type=click.IntRange(0, 3), default=1, show_default=True,
              help="Report (or, with --nodes, prove) positions up to this many plies in.")
@click.option("--lines/--no-lines", default=True, show_default=True,
              help="Print a principal line for each proved position.")
@click.option("--nodes", type=click.IntRange(1), default=None,
              help="Run the prover: node budget for the start (each side). Each attempt "
                   "also stops after an hour.")
@click.option("--each", type=click.IntRange(1), default=None,
              help="With --nodes: node budget for each later position (default: --nodes).")
@click.option("--deeper", type=click.IntRange(1), default=None,
              help="With --nodes: node budget at two plies and more (default: --each).")
@click.option("--write", "write_path", default=None, metavar="FILE",
              help="With --nodes: write the proofs found (gzip if FILE ends in .gz).")
def solve(game: str, proof_path: str | None, check: bool, plies: int, lines: bool,
          nodes: int | None, each: int | None, deeper: int | None,
          write_path: str | None) -> None:
    """Prove game values: what the shipped proof says about GAME (default camette), or,
    with --nodes, a new proving run."""
    if Position.start(game).variant.nseats != 2:
        raise click.ClickException(f"{game}: the prover is for two-seat games")
    # Options of the other mode are refused, not silently ignored.
    if nodes is not None:
        for given, flag in ((proof_path is not None, "--proof"), (check, "--check")):
            if given:
                raise click.BadParameter("reads a proof; it does not go with --nodes, which "
                                         "proves anew", param_hint=flag)
    else:
        for given, flag in ((each is not None, "--each"), (deeper is not None, "--deeper")):
            if given:
                raise click.BadParameter(f"{flag} needs --nodes", param_hint=flag)
    if nodes is not None:
        each = each or nodes
        _prove(game, (nodes, each, deeper or each), plies, write_path, lines)
        return
    if write_path is not None:
        raise click.BadParameter("--write needs --nodes", param_hint="--write")
    solved, source, text = _load(proof_path, game)
    if check:
        used = _check(text, source)
        # Answer from what was checked alone: a move line no claim reached is unchecked.
        # (A new proof: the shipped one is shared by the process.)
        from canter.engine.search.solve.proof import Proof
        from canter.engine.search.solve.solved import Solved

        kept = {k: v for k, v in solved.proof.moves.items() if k in used}
        solved = Solved(Proof(dict(solved.proof.claims), kept))
    click.echo(f"{game} ({source}; both draw rules off, see docs/solve.md)")
    for row in report(solved, game, plies, lines):
        click.echo(row)


def _check(text: str, source: str) -> set[str]:
    """Verify the proof and say so; the keys of the move lines the check reached."""
    from canter.adapters.solve.verify import ProofRejected, verify

    t0 = time.monotonic()
    try:
        checked = verify(text)
    except ProofRejected as exc:
        raise click.ClickException(f"{source}: proof rejected: {exc}") from None
    click.echo(f"checked {len(checked.claims)} claims in {time.monotonic() - t0:.1f} s: "
               f"{checked.positions} positions ({checked.winner_positions} with the winner "
               f"to move), longest line {checked.longest} plies, longest capture-free run "
               f"{checked.max_quiet} plies, no line repeats a position; "
               f"{checked.unused} move lines unused (and left out of the answers below)")
    return checked.used


def _prove(game: str, budgets: tuple[int, int, int], plies: int, write_path: str | None,
           lines: bool) -> None:
    from canter.adapters.solve.run import run
    from canter.engine.search.solve.proof import format_proof
    from canter.engine.search.solve.solved import Solved

    if write_path is not None:
        try:
            check_output_file(write_path)
            _check_own_proof(write_path)
        except OutputPathError as exc:
            raise click.BadParameter(str(exc), param_hint="--write") from None
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    t0 = time.monotonic()
    counts = {True: 0, False: 0, None: 0}

    def show(a) -> None:
        counts[a.proved] += 1
        where = " ".join(a.line) or "start"
        what = {True: f"proved, {a.plies} plies", False: "no win found",
                None: "budget spent"}[a.proved]
        click.echo(f"{where}: {a.attacker} to win: {what} ({a.nodes} nodes, "
                   f"{a.seconds:.1f} s, table {a.table})")

    from canter.engine.search.solve.proof import Proof

    proof = Proof()
    interrupted = False
    try:
        run(game, budgets, plies, show, proof=proof)
    except KeyboardInterrupt:  # what was proved is kept: every claim is whole
        interrupted = True
        click.echo("interrupted: the proofs found so far are kept", err=True)
    elapsed = time.monotonic() - t0
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    click.echo(f"{counts[True]} proved, {counts[None]} out of budget, {counts[False]} with "
               f"no win found, in {elapsed:.0f} s, peak memory {peak} MB")
    for row in report(Solved(proof), game, plies, lines):  # (--no-lines: verdicts only)
        click.echo(row)
    if write_path is not None and not proof.claims:
        # A proof of nothing could not even be read back (`--proof` wants a claim), and
        # would replace one that proved something.
        kept = " (the file there is kept)" if os.path.exists(write_path) else ""
        click.echo(f"nothing proved: {write_path} not written{kept}", err=True)
    elif write_path is not None:
        text = format_proof(proof, [
            f"game {game}; both draw rules off (repetition off, quiet limit 0)",
            f"canter solve {game} --nodes {budgets[0]} --each {budgets[1]} --deeper "
            f"{budgets[2]} --plies {plies}: {len(proof.claims)} claims, {elapsed:.0f} s"
            + (" (interrupted)" if interrupted else "")])
        data = gzip.compress(text.encode("utf-8"), mtime=0) if write_path.endswith(".gz") \
            else text
        try:
            replace_file(write_path, data)
        except OSError as exc:
            raise click.ClickException(f"{write_path}: {exc.strerror}") from None
        click.echo(f"wrote {write_path}")
    if interrupted:
        sys.exit(130)


def _check_own_proof(path: str) -> None:
    """An existing --write file is replaced only if it is a proof canter solve wrote
    (gzip-compressed when its name ends in .gz), or empty."""
    from canter.adapters.files import check_own_file
    from canter.engine.search.solve.proof import HEADER

    what = "a proof canter solve wrote"
    if path.endswith(".gz") and os.path.isfile(path) and os.path.getsize(path):
        try:
            with gzip.open(path, "rb") as f:
                head = f.read(4096)
        except (OSError, EOFError, zlib.error):
            head = b""
        if not head.startswith(HEADER.encode()):
            raise OutputPathError(f"{path} exists and is not {what}; it is left as it is: "
                                  "give another file, or remove it first")
        return
    check_own_file(path, (HEADER.encode(),), what)
