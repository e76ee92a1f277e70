"""Help texts and docs agree, and the docs stand alone (a clone has only the project)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from canter.cli import SUBCOMMANDS, main
from canter.engine import VARIANT_NAMES

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md", ROOT / "CONTRIBUTING.md"]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_link_in_the_docs_is_a_file_of_the_project(doc: Path) -> None:
    for target in LINK.findall(doc.read_text(encoding="utf-8")):
        if target.startswith(("http://", "https://", "mailto:", "#")):
            continue
        path = (doc.parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"{doc.name} links outside the project: {target}"
        assert path.exists(), f"{doc.name} links to a missing file: {target}"


def _help(*words: str) -> str:
    result = CliRunner().invoke(main, [*words, "--help"])
    assert result.exit_code == 0, result.output
    return result.output


# Commands that know no rules: they learn the games from a referee engine at run time.
RULES_FREE = {"gui"}
# Commands with no --variant of their own: every game at once (bench), the game from a file
# or an argument (replay, solve), or groups whose subcommands take it (book, tables).
NO_VARIANT = {"bench", "book", "compliance", "replay", "solve", "tables", "transcript"}


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_command_lists_the_variants_the_same_way(name: str) -> None:
    text = _help(name)
    if name in RULES_FREE:
        assert "--variant TEXT" in text and "any game the referee knows" in text
    elif name in NO_VARIANT:
        assert "--variant" not in text  # one that gains it belongs in the check below
    else:
        assert f"--variant [{'|'.join(VARIANT_NAMES)}]" in text


@pytest.mark.parametrize("words", [("book", "build"), ("book", "show"), ("book", "probe"),
                                   ("tables", "build"), ("tables", "info")])
def test_subcommands_list_the_variants_the_same_way(words: tuple[str, ...]) -> None:
    assert f"--variant [{'|'.join(VARIANT_NAMES)}]" in _help(*words)


def test_the_readme_names_every_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in SUBCOMMANDS:
        assert f"canter {name}" in readme, name


def test_the_in_game_help_of_play_and_its_docs_list_the_same_commands() -> None:
    from canter.adapters.play.game import HELP

    # (a line indented further goes on with the command above it)
    words = {line.split()[0] for line in HELP.splitlines()[1:]
             if line.strip() and not line.startswith("   ")}
    words.discard("<move>")
    docs = (ROOT / "docs" / "boards.md").read_text(encoding="utf-8")
    section = docs[docs.index("## `canter play`"):]
    documented = set(re.findall(r"`([a-z]+)(?: FILE)?`", section))
    assert words <= documented, words - documented
