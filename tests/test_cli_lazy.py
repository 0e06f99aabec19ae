"""The command line imports a command's module only when that command runs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from kgdiff.cli import COMMANDS, app_for
from kgdiff.cli.lazy import CommandGroup, load_target
from tests.paths import ROOT, SAMPLES, run_kgdiff

SAMPLE = SAMPLES / "testDump_json_2014-12.json.bz2"


def _targets(commands: Mapping[str, str | CommandGroup], prefix: str = "") -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for name, target in commands.items():
        if isinstance(target, CommandGroup):
            found += _targets(target.commands, f"{prefix}{name} ")
        else:
            found.append((prefix + name, target))
    return found


@pytest.mark.parametrize(("command", "target"), _targets(COMMANDS))
def test_every_registered_command_loads_and_shows_its_help(command: str, target: str) -> None:
    obj = load_target(target)
    assert isinstance(obj, typer.Typer) or callable(obj), command
    words = command.split()
    result = CliRunner().invoke(app_for(words), [*words, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    assert f"Usage: kgdiff {command}" in result.output


def _modules_after(args: list[str]) -> set[str]:
    """The modules loaded once the app for ``kgdiff ARGS`` is built, in a fresh interpreter."""
    code = (
        "import sys; from kgdiff.cli import app_for; "
        f"app_for({args!r}); print(' '.join(sorted(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(result.stdout.split())


def test_ingest_wikidata_leaves_the_other_commands_unloaded() -> None:
    loaded = _modules_after(["ingest", "wikidata", "dump.json"])
    assert "kgdiff.cli.ingest" in loaded
    for heavy in ("requests", "kgdiff.cli.pageviews", "kgdiff.pageviews.rest", "kgdiff.wikiapi"):
        assert heavy not in loaded, heavy
    # nor Arrow's query engine (~0.08 CPU-s in the main process and in the workers' server)
    assert not {"pyarrow.acero", "pyarrow.dataset"} & loaded


def test_an_ingest_never_loads_arrows_query_engine(tmp_path: Path) -> None:
    # the main process's side (a whole ingest), then a worker's (one task, in-process)
    code = (
        "import sys, bz2; from pathlib import Path; "
        "from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata; "
        f"ingest_wikidata(IngestRequest(path=Path({str(SAMPLE)!r}), snapshot='s', "
        f"date='2014-12-01', store={str(tmp_path / 'store')!r})); "
        "from kgdiff.ingest.worker import Task, run_task; "
        "from kgdiff.readers.json_dump import Chunk; "
        "from kgdiff.store.manifest import SourceInfo; "
        "from kgdiff.store.staging import Staging, StagingState; "
        f"data = bz2.decompress(Path({str(SAMPLE)!r}).read_bytes()); "
        "state = StagingState(SourceInfo('s', len(data), 0), len(data)); "
        f"staging = Staging(Path({str(tmp_path / 'staging')!r}), state); staging.open(); "
        "assert run_task(Task(Chunk(0, 0, 1, data), staging.parts, 's')).entities > 1000; "
        "print(' '.join(sorted(sys.modules)))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert (tmp_path / "store" / "kg.duckdb").is_file()
    assert not {"pyarrow.acero", "pyarrow.dataset"} & set(result.stdout.split())


def test_importing_the_console_script_loads_no_command() -> None:
    # what every ingest worker does: it re-imports the script that started the run
    bare = subprocess.run(
        [sys.executable, "-c", "import sys, kgdiff.cli; print(' '.join(sys.modules))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert not {"duckdb", "pyarrow", "numpy", "kgdiff.ingest.pipeline"} & set(bare)


def test_help_lists_every_command_and_group() -> None:
    result = run_kgdiff("--help")
    assert result.returncode == 0
    for name in COMMANDS:
        assert name in result.stdout
    sub = run_kgdiff("ingest", "--help")
    assert sub.returncode == 0
    ingest = COMMANDS["ingest"]
    assert isinstance(ingest, CommandGroup)
    for name in ingest.commands:
        assert name in sub.stdout


def test_a_mistyped_command_is_a_usage_error_with_a_suggestion() -> None:
    result = run_kgdiff("ingest", "wikidta", "x.json")
    assert result.returncode == 2
    assert "wikidata" in result.stderr


@pytest.mark.parametrize(("preset", "expected"), [(None, "1000"), ("10", "10")])
def test_the_command_line_keeps_freed_arrow_memory_unless_told_otherwise(
    preset: str | None, expected: str
) -> None:
    """mimalloc reads MIMALLOC_PURGE_DELAY when pyarrow loads, which the command line
    (importing no pyarrow itself, see above) precedes; a value the user set is kept."""
    env = {k: v for k, v in os.environ.items() if k != "MIMALLOC_PURGE_DELAY"}
    if preset is not None:
        env["MIMALLOC_PURGE_DELAY"] = preset
    script = (
        "import os, sys, kgdiff.cli\nsys.argv = ['kgdiff', '--help']\n"
        "try:\n    kgdiff.cli.main()\nexcept SystemExit:\n    pass\n"
        "import pyarrow\nprint(os.environ['MIMALLOC_PURGE_DELAY'], file=sys.stderr)"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == expected


def test_only_drawing_loads_matplotlib() -> None:
    # the plot commands load their module, but matplotlib only once they draw
    plot = _modules_after(["plot", "timeline", "Q42", "--cutoff", "2014-06-01", "--out", "x.svg"])
    assert "kgdiff.cli.plot" in plot
    assert not any(name.split(".")[0] in ("matplotlib", "PIL") for name in plot)
    # and the other commands not even the plot module
    assert "kgdiff.cli.plot" not in _modules_after(["timeline", "Q42"])
