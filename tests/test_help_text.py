"""The commands' ``--help`` says what they take (issue 39, item 5): no bracket of the help's
own words taken for rich markup (``pip install 'kgdiff[spark]'``), a flag shown without a
type it never takes (``--json``, not ``--json <bool>``), a repeatable option by one value's
type, arguments named as command lines name them (``PREDICTIONS``, not ``{predictions}``),
and ``kgdiff --version``."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from kgdiff import __version__
from kgdiff.cli import app_for
from tests.paths import run_kgdiff

BRACKETED = re.compile(r"\S*\[[^\]\s]*\]\S*")
"""A word with brackets in a help text: ``'kgdiff[spark]';``, ``YYYY-MM-DD[THH]``."""


def _paths(group: Any, context: Any, path: list[str]) -> Iterator[list[str]]:
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        yield [*path, name]
        if hasattr(command, "list_commands"):
            child = command.make_context(name, [], parent=context, resilient_parsing=True)
            yield from _paths(command, child, [*path, name])


def command_paths() -> list[list[str]]:
    """Every command and group below ``kgdiff`` (the top level too)."""
    root = typer.main.get_command(app_for([]))
    context = root.make_context("kgdiff", [], resilient_parsing=True)
    return [[], *_paths(root, context, [])]


def help_of(path: list[str]) -> tuple[str, Any]:
    """The rendered ``kgdiff PATH --help`` (wide, so that nothing wraps) and its command."""
    app = app_for(path)
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "1000"})
    assert result.exit_code == 0, result.output
    command: Any = typer.main.get_command(app)
    context = command.make_context("kgdiff", [], resilient_parsing=True)
    for name in path:
        command = command.get_command(context, name)
        context = command.make_context(name, [], parent=context, resilient_parsing=True)
    return result.output, (command, context)


def _sources(command: Any, context: Any) -> list[str]:
    """The help texts a command's --help renders: its own and its parameters'."""
    texts = [command.help or ""]
    texts += [getattr(param, "help", None) or "" for param in command.get_params(context)]
    return texts


@pytest.mark.parametrize("path", command_paths(), ids=lambda path: " ".join(path) or "kgdiff")
def test_help_shows_what_the_command_takes(path: list[str]) -> None:
    shown, (command, context) = help_of(path)
    assert "<bool>" not in shown and not re.search(r"--\S+\s+<list\[", shown), shown
    assert not re.search(r"Usage: .*\{", shown), shown
    for text in _sources(command, context):
        for word in BRACKETED.findall(text.replace("\\[", "[")):
            assert word in " ".join(shown.split()), word


def test_the_spark_extra_is_named_whole() -> None:
    for path in ([], ["spark"]):
        done = run_kgdiff(*path, "--help")
        assert done.returncode == 0 and "pip install 'kgdiff[spark]'" in done.stdout


def test_arguments_are_named_in_upper_case() -> None:
    done = run_kgdiff("score", "--help")
    # run in the test's process the command calls itself kgdiff (python -m kgdiff in one)
    assert re.search(r"Usage: (python -m )?kgdiff score \[OPTIONS\] PREDICTIONS", done.stdout)
    assert re.search(r"--json\s+Print the report as JSON", done.stdout)
    missing = run_kgdiff("score")
    assert missing.returncode == 2 and "Missing argument 'PREDICTIONS'" in missing.stderr


def test_version() -> None:
    done = run_kgdiff("--version")
    assert done.returncode == 0 and done.stdout == f"kgdiff {__version__}\n"
    assert "--version" in run_kgdiff("--help").stdout
