"""`canter tables build|probe|info`: the endgame tables (docs/tables.md).

Tables are built in this process by the engine's own retrograde analysis (canter.engine.
search.endings), one class after another, the smaller classes a class needs first, and kept
in the table folder (TablePath; default $CANTER_TABLES or ~/.cache/canter/tables).
"""

from __future__ import annotations

import os
import sys

import click

from canter.adapters.params import variant_option
from canter.adapters.tables.store import Folder
from canter.engine.rules.notation import format_move
from canter.engine.rules.position import Position
from canter.engine.rules.posstring import PositionError
from canter.engine.search.endings import (
    WIN,
    Endings,
    MaterialError,
    Table,
    TableError,
    classes,
    material_of,
    parse_material,
)

# The most pieces a table is built for: beyond it a class is too big for this machine (an
# eight-piece Camelot class already holds billions of positions).
MAX_PIECES = 8

def _named_folder(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    # An empty --dir (a script's unset variable, `--dir "$TB"`) would mean the default
    # folder, the one the engine reads: a build meant for elsewhere would land there.
    if value is not None and not value.strip():
        raise click.BadParameter("is empty: name a folder, or leave --dir out for the "
                                 "default one")
    return value


_dir_option = click.option("--dir", "folder", type=click.Path(file_okay=False), default=None,
                           callback=_named_folder,
                           help="The table folder (default: $CANTER_TABLES or "
                           "~/.cache/canter/tables).")


def _progress(material):
    """A progress line on stderr for one class's build."""
    bar = click.progressbar(length=material.base_size, label=material.key,
                            file=sys.stderr,
                            show_pos=True)
    bar.__enter__()
    state = {"done": 0}

    def report(done: int, total: int) -> None:
        if bar.length != total:
            bar.length = total
        bar.update(done - state["done"])
        state["done"] = done
        if done >= total:
            bar.__exit__(None, None, None)

    return report


def _endings(folder: Folder, build_missing: bool, quiet: bool = False) -> Endings:
    return Endings(load=folder.load, save=folder.save, available=folder.available(),
                   build_missing=build_missing, progress=None if quiet else _progress)


def _result(result: int, distance: int) -> str:
    if result == 0:
        return "draw"
    return f"{'win' if result == WIN else 'loss'} in {distance} plies"


# A probe builds missing tables by itself only up to this many positions (about an hour
# at the ~3,000 positions a second a build makes here); more needs --build said outright.
AUTO_BUILD_POSITIONS = 10_000_000
BUILD_RATE = 3_000  # positions a second, for the estimate a refused probe gives


def _to_build(wanted: list, store: Folder, force: bool, successors: bool = False) -> list:
    """The classes a build of `wanted` writes: the wanted ones (all with `force`, else
    the missing), and every missing class they need, smaller ones first. `successors`:
    the classes one capture leads to from a wanted one are needed even where it has a
    table (a probe values each move by them)."""
    available = set(store.available())

    def have(key: str) -> bool:
        # Only a table that loads counts: a damaged one, one of another format, or a file
        # of another kind under the class's name is built again (or in the way).
        if key not in available:
            return False
        data = store.load(key)
        try:
            return data is not None and Table.from_bytes(data, key) is not None
        except TableError:
            return False

    order: list = []
    seen: set[str] = set()

    def visit(m, named: bool) -> None:
        if m.key in seen:
            return
        seen.add(m.key)
        present = have(m.key)
        if present and not (named and (force or successors)):
            return  # loaded, with what it needs
        for sub in m.subclasses():
            visit(sub, False)
        if not present or (named and force):
            order.append(m)

    for m in wanted:
        visit(m, True)
    return order


def _check_targets(plan: list, store: Folder, folder: str | None) -> None:
    """Before any work, when there is a table to build: the folder must take it, and no
    class of the plan may be kept from being written by something of another kind under
    its name (a file, a folder, a device: found only at the end of its build otherwise).
    Nothing to build: nothing is checked (the tables are read, wherever they are)."""
    from canter.adapters.files import OutputPathError, check_output_folder
    from canter.adapters.tables.store import is_table_file

    if not plan:
        return
    try:
        check_output_folder(str(store.path))
    except OutputPathError as exc:
        # (Without --dir the folder came from $CANTER_TABLES or the default: say so.)
        raise click.BadParameter(str(exc), param_hint="--dir" if folder is not None else
                                 "the table folder ($CANTER_TABLES or the default; "
                                 "--dir names another)") from None
    for m in plan:
        target = store.file(m.key)
        if (target.exists() or target.is_symlink()) and not (
                target.is_file() and is_table_file(target)):
            raise click.ClickException(f"{target} is not a table file, and {m.key} would be "
                                       "written there; it is kept (move it away, or give "
                                       "another --dir)")


def _hours(positions: int) -> str:
    seconds = positions / BUILD_RATE
    if seconds < 3600:
        return f"about {max(1, round(seconds / 60))} minutes"
    if seconds < 3 * 86400:
        return f"about {seconds / 3600:.0f} hours"
    return f"about {seconds / 86400:.0f} days"


@click.group()
def tables() -> None:
    """Endgame tables: build, probe, info (docs/tables.md)."""


@tables.command()
@variant_option("The game whose tables are built (with --pieces).")
@click.option("--pieces", type=click.IntRange(2, MAX_PIECES), default=None,
              help="Build every class with at most this many pieces.")
@click.argument("names", nargs=-1, metavar="[CLASS]...")
@_dir_option
@click.option("--force", is_flag=True, help="Build again the classes named or chosen, even if "
              "they exist (the smaller ones they need are loaded).")
@click.option("--quiet", is_flag=True, help="No progress bars.")
def build(variant: str, pieces: int | None, names: tuple[str, ...], folder: str | None,
          force: bool, quiet: bool) -> None:
    """Build tables: CLASS like camette-wKM-bK (Knights K and Men M after each seat's
    letter), or all classes of --variant with at most --pieces pieces."""
    if not names and pieces is None:
        raise click.UsageError("name classes, or give --pieces")
    wanted = []
    try:
        wanted = [parse_material(n, variant) for n in names]
    except MaterialError as exc:
        raise click.BadParameter(str(exc), param_hint="CLASS") from None
    for m in wanted:
        if m.count > MAX_PIECES:
            raise click.BadParameter(f"{m.key} has {m.count} pieces; tables are built for at "
                                     f"most {MAX_PIECES}", param_hint="CLASS")
    if pieces is not None:
        wanted += classes(variant, pieces)
        if not wanted:
            raise click.ClickException(f"{variant} has no two-sided endings")
    store = Folder(folder)
    _check_targets(_to_build(wanted, store, force), store, folder)
    endings = _endings(store, build_missing=False, quiet=quiet)
    for m in wanted:
        if not force and endings.table(m) is not None:
            click.echo(f"{m.key}: exists")
            continue
        try:
            table = endings.build(m, force=True)
        except OSError as exc:
            raise click.ClickException(f"a table could not be written ({_os_error(exc, store)})"
                                       "; the tables written before it are kept") from None
        s = table.stats
        click.echo(f"{m.key}: {s['states']} positions, {s['win']} won, {s['draw']} drawn, "
                   f"{s['loss']} lost, longest win {s['longest_win']} plies, "
                   f"{s['seconds']} s -> {store.file(m.key)}")


@tables.command()
@click.argument("position", metavar="POSITION")
@_dir_option
@click.option("--build/--no-build", "build_flag", default=None,
              help="Build a missing table (and the ones it needs) first. Default: build when "
                   f"that means at most {AUTO_BUILD_POSITIONS:,} positions (about an hour), "
                   "else say what it would take.")
def probe(position: str, folder: str | None, build_flag: bool | None) -> None:
    """The value of POSITION (a position string) from the tables, its distance in plies, and
    each move's value, best first."""
    build_missing = build_flag is not False
    try:
        pos = Position.from_string(position)
    except (PositionError, ValueError) as exc:
        raise click.BadParameter(str(exc), param_hint="POSITION") from None
    m = material_of(pos)
    if m is None:
        raise click.ClickException("not a two-sided ending (two seats with pieces, the "
                                   "others out of the game)")
    if build_missing and m.count > MAX_PIECES:
        raise click.ClickException(f"{m.key} has {m.count} pieces; tables are built for at "
                                   f"most {MAX_PIECES}")
    if not build_missing:
        _existing(folder)
    store = Folder(folder)
    if build_missing:
        plan = _to_build([m], store, force=False, successors=True)
        _check_targets(plan, store, folder)
        size = sum(c.base_size for c in plan)
        if build_flag is None and size > AUTO_BUILD_POSITIONS:
            what = (f"{m.key} has no table; building it" if any(c.key == m.key for c in plan)
                    else f"the classes {m.key}'s moves lead to have no tables; building them")
            raise click.ClickException(
                f"{what} means {len(plan)} classes, {size:,} positions ({_hours(size)}): "
                "give --build to go ahead, or --no-build")
    endings = _endings(store, build_missing)
    try:
        got = endings.probe(pos)
        if got is None:
            raise click.ClickException(f"{m.key}: {_why_none(store, endings, m)}")
        click.echo(f"{m.key}: {pos.variant.seats[pos.turn].name} to move: {_result(*got)}")
        ranked = endings.best_moves(pos)  # (may build a successor's table)
        for move, result, d in ranked:
            click.echo(f"  {format_move(pos.variant, move):<16} {_result(result, d)}")
        if not ranked and pos.outcome() is None and pos.legal_moves():
            # (the value is known, the moves' are not all: never a silent short answer)
            click.echo("  (the moves are not listed: a class some of them lead to has no usable "
                       "table" + ("; give --build" if not build_missing else "") + ")")
    except OSError as exc:
        raise click.ClickException(_os_error(exc, store)) from None


def _existing(folder: str | None) -> None:
    """A folder named with --dir that only is read must exist: a mistyped name would list no
    tables, as if there were none. (The default folder may not exist yet.)"""
    if folder is not None and not os.path.isdir(os.path.expanduser(folder)):
        raise click.BadParameter(f"{folder}: no such folder", param_hint="--dir")


def _os_error(exc: OSError, store: Folder) -> str:
    """The file (or the folder) and what went wrong with it, in one line."""
    if exc.strerror:
        return f"{exc.filename or store.path}: {exc.strerror}"
    return str(exc)


def _why_none(store: Folder, endings: Endings, m) -> str:
    """Why a probe found nothing: no table, a damaged one, or a state it does not hold."""
    data = store.load(m.key)
    if data is not None:
        try:
            Table.from_bytes(data, m.key)
        except TableError as exc:
            where = store.file(m.key) if store.file(m.key).is_file() else "the shipped file"
            return f"{where}: {exc}"
    if endings.table(m) is None:
        return "no table"
    return "the table does not hold this state"


@tables.command()
@_dir_option
@variant_option("Only this game's tables.")
@click.option("--all", "every", is_flag=True, help="Every game's tables.")
def info(folder: str | None, variant: str, every: bool) -> None:
    """The tables that exist (built or shipped): positions, results, size, build time."""
    _existing(folder)
    store = Folder(folder)
    click.echo(f"table folder: {store.path}")
    shown = elsewhere = 0
    for key in store.available():
        try:
            m = parse_material(key)
        except MaterialError:
            continue
        if not every and m.variant.name != variant:
            elsewhere += 1
            continue
        shown += 1
        data = store.load(key)
        try:
            table = Table.from_bytes(data, key) if data is not None else None
        except TableError as exc:
            click.echo(f"{key}: {exc}")
            continue
        if table is None:
            continue
        s = table.stats
        where = "built" if store.file(key).is_file() else "shipped"
        click.echo(f"{key:<24} {where:<8} {s.get('states', '?'):>9} positions  "
                   f"won {s.get('win', '?')} drawn {s.get('draw', '?')} lost "
                   f"{s.get('loss', '?')}  longest win {s.get('longest_win', '?')}  "
                   f"{len(data)} bytes  {s.get('seconds', '?')} s")
    if not shown:
        more = (f"; {elsewhere} of other games: --variant NAME or --all lists them"
                if elsewhere else "")
        click.echo(f"no {'' if every else variant + ' '}tables{more}")
