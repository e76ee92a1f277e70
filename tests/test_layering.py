"""The layers point one way (adapters -> protocol -> engine), and the engine does no I/O."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "canter"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def _calls(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {node.func.id for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)}


@pytest.mark.parametrize("path", sorted((PACKAGE / "engine").glob("*.py")), ids=lambda p: p.name)
def test_the_engine_does_no_io_and_imports_no_upper_layer(path):
    imports = _imports(path)
    assert not {m for m in imports if m.startswith(("canter.protocol", "canter.adapters"))}
    assert "click" not in imports and "pexpect" not in imports
    assert not {"print", "input", "open"} & _calls(path)
    assert "sys.stdout" not in path.read_text() and "sys.stderr" not in path.read_text()


@pytest.mark.parametrize("path", sorted((PACKAGE / "protocol").glob("*.py")), ids=lambda p: p.name)
def test_the_protocol_does_not_reach_up_into_the_adapters(path):
    assert not {m for m in _imports(path) if m.startswith("canter.adapters")}


@pytest.mark.parametrize("path", sorted((PACKAGE / "adapters").glob("*.py")), ids=lambda p: p.name)
def test_adapters_talk_to_engines_only_through_the_protocol(path):
    # They may use the rules library, but never run the protocol in-process.
    assert not {m for m in _imports(path) if m.startswith("canter.protocol")}
