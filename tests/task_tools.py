"""Running the task files of a benchmark folder in the tests: reading their YAML, and running
lm-eval and Inspect as subprocesses offline (tests/test_benchmark_tasks.py,
tests/test_benchmark_task_runs.py)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import polars as pl
import yaml

from kgdiff.export.tasks.writer import write_tasks
from tests.paths import ROOT


class _TaskLoader(yaml.SafeLoader):  # type: ignore[misc]  # yaml has no types here
    """PyYAML's safe loader that reads lm-eval's ``!function`` as ``("function", name)``."""


_TaskLoader.add_constructor("!function", lambda loader, node: ("function", node.value))


def read_yaml(path: Path) -> dict[str, Any]:
    """A task file, ``!function`` tags read as ``("function", name)``."""
    loaded: dict[str, Any] = yaml.load(path.read_text(), Loader=_TaskLoader)
    return loaded


def load_task_module(path: Path) -> ModuleType:
    """A task folder's Python file imported from its path, under its own name, as lm-eval
    imports the module a ``!function`` names (and not into ``sys.modules``)."""
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def folder_task_module(root: Path, rows: list[dict[str, Any]]) -> ModuleType:
    """kgdiff_metrics.py of the task files written for a folder of one ``qa`` split of
    ``rows`` in ``root``, whose ``tasks/`` was then copied elsewhere and the folder removed
    (the task files stand alone), imported from the copy as lm-eval imports it."""
    split = root / "bench" / "data" / "qa"
    split.mkdir(parents=True)
    frame = pl.DataFrame(rows)
    frame.write_parquet(split / "evolved.parquet")
    frame.write_ndjson(split / "evolved.jsonl")
    write_tasks(root / "bench", ["qa"])
    moved = shutil.copytree(root / "bench" / "tasks", root / "elsewhere" / "tasks")
    shutil.rmtree(root / "bench")
    return load_task_module(moved / "lm_eval" / "kgdiff_metrics.py")


def tool_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a tool run: offline, its caches and logs under ``tmp_path``."""
    return {
        **os.environ,
        "HF_HOME": str(tmp_path / "hf"),
        "HF_DATASETS_OFFLINE": "1",
        "HF_HUB_OFFLINE": "1",
        "INSPECT_LOG_DIR": str(tmp_path / "inspect-logs"),
        "PYTHONPATH": "",
    }


def run_lm_eval(
    folder: Path, tmp_path: Path, tasks: str, limit: int = 5, as_installed: bool = False
) -> dict[str, Any]:
    """``lm_eval --model dummy`` on ``tasks`` of the folder, run from it (its task index
    without lm-eval's own tasks: tests/lm_eval_run.py; ``as_installed``: the ``lm_eval``
    script a user runs, which indexes lm-eval's own tasks beside the folder's); its results."""
    script = str(Path(sys.executable).parent / "lm_eval")
    fast = [sys.executable, str(ROOT / "tests" / "lm_eval_run.py")]
    command = [
        *([script] if as_installed else fast),
        *("--model", "dummy", "--include_path", "tasks/lm_eval", "--limit", str(limit)),
        *("--tasks", tasks, "--output_path", str(tmp_path / "results")),
    ]
    done = subprocess.run(
        command, cwd=folder, env=tool_env(tmp_path), capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (results_file,) = (tmp_path / "results").rglob("results_*.json")
    results: dict[str, Any] = json.loads(results_file.read_text())["results"]
    return results


InspectRun = tuple[Path, str, dict[str, str], dict[str, str]]
"""A run of :func:`run_inspect_many`: the benchmark folder, the task, the replies, the task's
arguments (``limit`` among them: default 5)."""


def run_inspect_many(tmp_path: Path, runs: list[InspectRun]) -> list[dict[str, Any]]:
    """Inspect tasks of benchmark folders with the mock model replying from each run's
    replies (tests/inspect_run.py), at most ``limit`` samples each, run one after the other
    in one process (importing Inspect takes seconds); each run's status, samples and
    metrics, in order."""
    asked = []
    for folder, task, replies, task_args in runs:
        args = dict(task_args)
        limit = int(args.pop("limit", "5"))
        spec = f"{folder / 'tasks' / 'inspect' / 'kgdiff_tasks.py'}@{task}"
        asked.append({"spec": spec, "replies": replies, "limit": limit, "args": args})
    runs_file = tmp_path / f"inspect-runs-{len(list(tmp_path.glob('inspect-runs-*')))}.json"
    runs_file.write_text(json.dumps(asked))
    command = [sys.executable, str(ROOT / "tests" / "inspect_run.py")]
    command += [str(tmp_path / "logs"), str(runs_file)]
    done = subprocess.run(
        command, cwd=tmp_path, env=tool_env(tmp_path), capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    mark = "inspect-report: "
    lines = [line for line in done.stdout.splitlines() if line.startswith(mark)]
    reports: list[dict[str, Any]] = [json.loads(line.removeprefix(mark)) for line in lines]
    assert len(reports) == len(runs), done.stdout[-3000:]
    for report in reports:
        assert report["status"] == "success", report["error"]
    return reports
