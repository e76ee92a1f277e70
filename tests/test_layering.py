"""The architecture, checked by reading every module's import statements.

Layers point one way: adapters -> protocol -> engine, and inside the engine search -> rules.
Adapters may use the rules library, never the protocol in-process. The engine does no I/O.
No module takes part in an import circle (imports under `if TYPE_CHECKING:` are for type
checkers only and do not count). docs: CONTRIBUTING.md, "Architecture".
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "canter"

# Where a module lives -> the prefixes it must never import. Checked in order: the first
# rule whose prefix matches the module applies.
FORBIDDEN: list[tuple[str, tuple[str, ...]]] = [
    ("canter.engine.rules", ("canter.engine.search", "canter.protocol", "canter.adapters",
                             "canter.cli", "click", "pexpect")),
    ("canter.engine", ("canter.protocol", "canter.adapters", "canter.cli", "click", "pexpect")),
    ("canter.protocol", ("canter.adapters", "canter.cli", "click", "pexpect")),
    # The client library stands alone: an outside program can use it without the arbiter.
    ("canter.adapters.client", ("canter.protocol", "canter.cli", "canter.adapters.arbiter",
                                "canter.adapters.records", "canter.adapters.play",
                                "canter.adapters.pictures", "canter.adapters.transcript",
                                "canter.adapters.measure")),
    # `canter bench` runs the searcher in-process: it measures the search, not an engine.
    ("canter.adapters.measure", ("canter.protocol", "canter.cli")),
    # `canter book build` runs it in-process too: a book is the search's own output.
    ("canter.adapters.book", ("canter.protocol", "canter.cli")),
    # The proof checker shares nothing with the prover: the rules library only.
    ("canter.adapters.solve.verify", ("canter.protocol", "canter.cli", "canter.engine.search")),
    # `canter solve --nodes` runs the prover in-process: a proof is the search's own output.
    ("canter.adapters.solve", ("canter.protocol", "canter.cli")),
    # `canter tables` builds and probes the search's endgame tables in-process: they are the
    # search's own data, made by its retrograde analysis.
    ("canter.adapters.tables", ("canter.protocol", "canter.cli")),
    # The browser board knows no rules: everything it shows comes from engine processes
    # (tests/test_gui_server.py also checks that importing it loads no canter.engine module).
    ("canter.adapters.gui", ("canter.protocol", "canter.cli", "canter.engine",
                             "canter.adapters.play", "canter.adapters.pictures",
                             "canter.adapters.arbiter")),
    # Every other tool plays through engine processes: it may use the rules, not the search.
    ("canter.adapters", ("canter.protocol", "canter.cli", "canter.engine.search")),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(tree: ast.AST):
    """Every import statement, at any depth, except those under `if TYPE_CHECKING:`."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports_of(name: str, path: Path) -> set[str]:
    """The modules `name` imports: `from a.b import c` counts as a.b.c when that is a module
    of the package, else as a.b."""
    out: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
            continue
        base = node.module or ""
        if node.level:
            package = _package_of(name, path)
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if base else package
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            out.add(sub if sub in MODULES else base)
    return out


GRAPH = {name: {m for m in imports_of(name, path) if m in MODULES}
         for name, path in MODULES.items()}


def violations(name: str, imported: set[str]) -> set[str]:
    for prefix, forbidden in FORBIDDEN:
        if name == prefix or name.startswith(prefix + "."):
            return {m for m in imported
                    if any(m == f or m.startswith(f + ".") for f in forbidden)}
    return set()


def find_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One circle through each strongly connected group of modules (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in graph.get(v, ()):
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return groups


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_the_right_way(name):
    bad = violations(name, imports_of(name, MODULES[name]))
    assert not bad, f"{name} imports {sorted(bad)} against the direction of dependencies"


def test_no_import_circles():
    assert find_circles(GRAPH) == []


def test_the_checks_catch_what_they_guard_against():
    # The checks themselves must be able to fail.
    assert violations("canter.engine.rules.position", {"canter.engine.search.evaluate"})
    assert violations("canter.engine.search.brs", {"canter.protocol.session"})
    assert violations("canter.protocol.uci", {"canter.adapters.client"})
    assert violations("canter.adapters.play.game", {"canter.protocol.main"})
    assert violations("canter.adapters.client.engine", {"canter.adapters.records.format"})
    assert not violations("canter.adapters.play.game", {"canter.engine.rules.position"})
    assert violations("canter.adapters.arbiter.game", {"canter.engine.search.searcher"})
    assert not violations("canter.adapters.measure.cli", {"canter.engine.search.bench"})
    assert violations("canter.adapters.gui.table", {"canter.engine.rules.notation"})
    assert not violations("canter.adapters.gui.table", {"canter.adapters.client.engine"})
    assert find_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert find_circles({"a": {"b"}, "b": set()}) == []


ENGINE = sorted(n for n in MODULES if n.startswith("canter.engine"))


def _calls(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.func.id for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}


@pytest.mark.parametrize("name", ENGINE)
def test_the_engine_does_no_io(name):
    path = MODULES[name]
    assert not {"print", "input", "open"} & _calls(path)
    text = path.read_text(encoding="utf-8")
    assert "sys.stdout" not in text and "sys.stderr" not in text


def test_every_tool_has_its_command_in_cli():
    from canter.cli import SUBCOMMANDS

    for module, _, _ in SUBCOMMANDS.values():
        assert module.startswith("canter.adapters.") and module.endswith(".cli"), module
        assert module in MODULES
