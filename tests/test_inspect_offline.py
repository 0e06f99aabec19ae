"""The Inspect task files of an exported benchmark run from the Inspect command line without
network, as docs/benchmark-tasks.md shows (issue 39, item 11): ``-T dry_run=true`` answers
every record with its gold answer through Inspect's mock model, whose replies carry their
token counts. Plain ``--model mockllm/model`` fetches tiktoken's ``o200k_base`` encoding on
first use; here tiktoken has an empty cache and any download goes to a closed port."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from tests.benchmark_exports import export
from tests.task_tools import tool_env

INSPECT = Path(sys.executable).parent / "inspect"
EXPECTED = {
    "kgdiff_gen": {"em/mean": 1.0, "includes/accuracy": 1.0, "outdated_rate/mean": 0.0},
    "kgdiff_mc": {"choice/accuracy": 1.0, "outdated_rate/mean": 0.0},
    "kgdiff_tf": {"match/accuracy": 1.0},
}


@pytest.fixture(scope="module")
def folder(export_sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("inspect-offline") / "bench"
    return export(export_sample_store, out).out


def offline(tmp_path: Path) -> dict[str, str]:
    """The environment of a run without network: no cached encoding, no way out."""
    dead = "http://127.0.0.1:9"
    return {
        **tool_env(tmp_path),
        "TIKTOKEN_CACHE_DIR": str(tmp_path / "tiktoken"),
        **{name: dead for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy")},
        "NO_PROXY": "",
    }


@pytest.mark.parametrize("task", sorted(EXPECTED))
def test_a_dry_run_needs_no_network(folder: Path, tmp_path: Path, task: str) -> None:
    spec = f"{folder / 'tasks' / 'inspect' / 'kgdiff_tasks.py'}@{task}"
    logs = tmp_path / "logs"
    command = [str(INSPECT), "eval", spec, "-T", "split=evolved", "-T", "dry_run=true"]
    command += ["--model", "mockllm/model", "--log-dir", str(logs), "--display", "none"]
    done = subprocess.run(
        command, cwd=tmp_path, env=offline(tmp_path), capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (path,) = logs.glob("*.eval")
    log = read_eval_log(str(path))
    assert log.status == "success", log.error
    assert log.results is not None and log.results.completed_samples > 0
    metrics = {
        f"{score.name}/{name}": metric.value
        for score in log.results.scores
        for name, metric in score.metrics.items()
    }
    assert EXPECTED[task].items() <= metrics.items(), metrics
