"""The suite's own rules (issue 34, finding 13): one Hypothesis profile with no wall-clock
limit, ``make lint`` over the project's files only, and the files the documentation's examples
write into the working folder ignored by git."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from scripts.lint import commands, tracked_python_files
from tests.paths import ROOT

TESTS = ROOT / "tests"
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
OUTPUT_OPTIONS = ("--out", "--data", "--output_path", "-o", "--dest")
UNNAMED_OUTPUTS = (
    "wikidata-20240101-all.json.gz",  # README's kgdiff fetch, into the working folder
    "wikidata-20240101-all.json.gz.part",  # the same, unfinished
    "env",  # docs/spark.md: python -m venv env
    "logs",  # docs/benchmark-tasks.md: inspect eval's log folder
)
"""What the examples write without an output option naming it."""
SHELL_BLOCK = re.compile(r"^```(?:sh|bash)\n(.*?)^```", re.M | re.S)


def test_hypothesis_runs_without_wall_clock_limits() -> None:
    """The profile tests/conftest.py loads: no deadline, and no health check on how long
    data takes to generate (both flip on a loaded machine)."""
    assert settings.default is not None
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


def _settings_calls(path: Path) -> list[str]:
    """``file:line keyword`` for each deadline given to a Hypothesis settings object, and
    each profile registered or loaded, in the file at ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = ast.unparse(node.func)
        if name.endswith(("register_profile", "load_profile")):
            found.append(f"{path.name}:{node.lineno} {name}")
        found += [
            f"{path.name}:{node.lineno} deadline"
            for keyword in node.keywords
            if keyword.arg == "deadline" and name.endswith("settings")
        ]
    return found


def test_no_test_sets_its_own_deadline_or_profile() -> None:
    files = [path for path in TESTS.rglob("*.py") if path.name != "conftest.py"]
    assert files
    assert [call for path in files for call in _settings_calls(path)] == []


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_lint_checks_the_tracked_files_only(tmp_path: Path) -> None:
    """A checkout with a tracked file, a tracked one deleted, an untracked scratch file and a
    file in an unchecked folder: ruff gets the first, mypy too if under its folders."""
    _git(tmp_path, "init", "-q")
    (tmp_path / "pyproject.toml").write_text('[tool.mypy]\nfiles = ["pkg"]\n')
    (tmp_path / "pkg").mkdir()
    for name in ("pkg/kept.py", "pkg/gone.py", "setup.py"):
        (tmp_path / name).write_text("x = 1\n")
    _git(tmp_path, "add", "pkg/kept.py", "pkg/gone.py", "setup.py")
    (tmp_path / "pkg" / "gone.py").unlink()
    (tmp_path / "scratch.py").write_text("import os\n")
    assert tracked_python_files(tmp_path) == ["pkg/kept.py", "setup.py"]
    checks = commands(tmp_path)
    assert checks["ruff check"][-3:] == ["--force-exclude", "pkg/kept.py", "setup.py"]
    assert checks["mypy"][1:] == ["pkg/kept.py"]
    plain = tmp_path / "archive"  # no checkout of its own: the tools find the files
    plain.mkdir()
    (plain / "pyproject.toml").write_text('[tool.mypy]\nfiles = ["pkg"]\n')
    assert tracked_python_files(plain) is None
    assert commands(plain)["ruff check"][2:] == ["."]
    assert commands(plain)["mypy"][1:] == []


def test_make_lint_runs_the_script() -> None:
    recipe = (ROOT / "Makefile").read_text().split("\nlint:", 1)[1].split("\n\n", 1)[0]
    assert "scripts/lint.py" in recipe
    assert "ruff check ." not in recipe


def written_by_examples(text: str) -> set[str]:
    """The relative paths the shell examples (``sh``, ``bash`` blocks) of a Markdown text
    write to: the value of an output option (each of ``a|b`` alternatives) or of a
    redirection, placeholders (``DIR``, ``FILE``) and absolute paths left out; below the
    folder of a ``cd X`` before them, none after a ``cd`` to a placeholder."""
    found: set[str] = set()
    for block in SHELL_BLOCK.findall(text):
        folder = ""
        for line in block.replace("\\\n", " ").splitlines():
            if moved := re.match(r"\s*\(?cd (\S+)", line):  # a subshell's cd too
                folder = moved.group(1)
            words = line.replace("[", " ").replace("]", " ").split()
            values = [b for a, b in pairwise(words) if a in OUTPUT_OPTIONS]
            values += re.findall(r"(?:^|\s)>>? *([^\s&|;>]+)", line)
            for value in (v.rstrip(")") for each in values for v in each.split("|")):
                if folder and _placeholder(folder):
                    continue
                if not value.startswith(("/", "$", "<", "&")) and not _placeholder(value):
                    found.add(f"{folder}/{value}" if folder else value)
    return found


def _placeholder(word: str) -> bool:
    """``DIR``, ``FILE``: a word the reader replaces (no lower-case letter)."""
    return re.search("[a-z]", word) is None


def _ignored(path: str) -> bool:
    """Whether git ignores ``path`` in this checkout, as a file or as a folder."""
    for probe in (path, f"{path}/probe"):
        done = subprocess.run(
            ["git", "check-ignore", "-q", "--no-index", probe], cwd=ROOT, capture_output=True
        )
        if done.returncode == 0:
            return True
    return False


def test_written_by_examples_reads_options_and_redirections() -> None:
    text = (
        "```sh\nkgdiff export rdf --out germany.ttl\nkgdiff classify [--out a.csv|a.jsonl]\n"
        "kgdiff x > x.json\ncurl -o /dev/null u\nkgdiff fetch URL [--dest DIR]\n"
        "cd bench && lm_eval --output_path out\n```\nkgdiff y --out outside.csv\n"
        "```text\nDIR/<split>.jsonl\n```\n```bash\ncd DIR\nlm_eval --output_path results\n```\n"
    )
    assert written_by_examples(text) == {"germany.ttl", "a.csv", "a.jsonl", "bench/out", "x.json"}


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs the git checkout")
def test_what_the_examples_write_is_ignored_by_git() -> None:
    written = {path for doc in DOCUMENTS for path in written_by_examples(doc.read_text())}
    assert {"germany.ttl", "bench-2014", "groups.csv"} <= written
    written |= set(UNNAMED_OUTPUTS)
    assert sorted(path for path in written if not _ignored(path)) == []
