"""The user's documentation stays true: docs/cli.md says what the commands' --help says, and
every link between the README, docs/ and bench/README.md leads to a file of the repository (and
to a heading of it, when it names one)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

DOCS = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]*)(?:#([^)\s]*))?\)")


def anchors(path: Path) -> set[str]:
    """The anchors GitHub gives the headings of a Markdown file."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    headings = re.findall(r"^#+ (.+)$", text, flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_the_command_reference_matches_the_commands_help() -> None:
    script = ROOT / "scripts" / "cli_docs.py"
    result = subprocess.run(
        [sys.executable, str(script), "--check"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


def test_every_command_has_its_section() -> None:
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for command in ("classify", "pools", "chains", "updates", "ingest wikidata", "fetch"):
        assert f"### `kgdiff {command}`" in text


@pytest.mark.parametrize("doc", DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file_and_heading(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    wrong = []
    for target, anchor in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path = (doc.parent / target) if target else doc
        if not path.exists():
            wrong.append(target)
        elif anchor and path.suffix == ".md" and anchor not in anchors(path):
            wrong.append(f"{target}#{anchor}")
    assert not wrong, f"{doc.name} links to what does not exist: {wrong}"


def test_the_docs_index_lists_every_doc() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for doc in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{doc.name})" in readme, doc.name
