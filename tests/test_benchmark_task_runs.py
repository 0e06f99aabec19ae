"""The task files that `kgdiff export benchmark` writes, run by lm-eval (``--model dummy``) and
Inspect (``mockllm/model``) on real exports: every config of the real samples (qa, multi_hop)
and the knowledge update of the synthetic history (updates)."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from kgdiff.export.benchmark import BenchmarkExport
from tests.benchmark_exports import SAMPLES_WINDOW, export, records
from tests.task_tools import read_yaml, run_inspect_many, run_lm_eval
from tests.test_supporting_revisions import history_store_in

WINDOW = {"init": date(2019, 1, 1), "cutoff": date(2020, 1, 1), "current": date(2021, 1, 1)}


@pytest.fixture(scope="module")
def samples(export_sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    out = tmp_path_factory.mktemp("task-runs") / "bench"
    configs = ("qa", "multi_hop", "updates")
    return export(export_sample_store, out, configs=configs, **SAMPLES_WINDOW)


@pytest.fixture(scope="module")
def updates(tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    folder = tmp_path_factory.mktemp("task-runs-updates")
    store = history_store_in(folder)
    return export(store, folder / "bench", configs=("updates",), mode="valid", options=3, **WINDOW)


def test_the_export_writes_task_files_for_each_config_with_records(
    samples: BenchmarkExport,
) -> None:
    lm_eval = samples.out / "tasks" / "lm_eval"
    groups = read_yaml(lm_eval / "kgdiff.yaml")["task"]
    assert groups == [
        "kgdiff_qa_gen", "kgdiff_qa_mc", "kgdiff_qa_tf", "kgdiff_multi_hop_gen",
    ]  # fmt: skip
    assert samples.configs["updates"] == {"updates": 0}  # an empty split gets no task
    chain = read_yaml(lm_eval / "kgdiff_multi_hop_gen_hops_2.yaml")
    assert chain["dataset_kwargs"] == {"data_files": {"hops_2": "data/multi_hop/hops_2.parquet"}}
    metrics = [m["metric"] for m in chain["metric_list"]]
    assert metrics == ["em", "alias_em", "f1", "unknown_rate", "date_match", "number_match"]
    assert (samples.out / "tasks" / "inspect" / "kgdiff_tasks.py").is_file()


def test_lm_eval_runs_every_task_of_a_real_export(samples: BenchmarkExport, tmp_path: Path) -> None:
    # as a user runs it: lm-eval's own tasks indexed beside the folder's, none shadowing them
    results = run_lm_eval(samples.out, tmp_path, "kgdiff", limit=3, as_installed=True)
    for split in ("stable", "evolved", "uncharted"):
        assert "mc_accuracy,none" in results[f"kgdiff_qa_mc_{split}"]
        assert "tf_accuracy,none" in results[f"kgdiff_qa_tf_{split}"]
    for split in ("hops_2", "hops_3"):
        assert results[f"kgdiff_multi_hop_gen_{split}"]["em,none"] == 0.0  # the dummy says "lol"


def test_lm_eval_runs_the_updates_tasks(updates: BenchmarkExport, tmp_path: Path) -> None:
    results = run_lm_eval(updates.out, tmp_path, "kgdiff_updates_gen,kgdiff_updates_mc")
    assert results["kgdiff_updates_gen_updates"]["outdated_rate,none"] == 0.0
    assert "mc_accuracy,none" in results["kgdiff_updates_mc_updates"]


@pytest.fixture(scope="module")
def inspect_reports(
    samples: BenchmarkExport, updates: BenchmarkExport, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, Any]]:
    """The reports of the Inspect runs of the tests below, by name, run in one process
    (a process each imported Inspect anew); each test checks its own."""
    chains = records(samples.out, "hops_2", "multi_hop")
    chains_right = {r["question"]: r["answer_labels"][0] for r in chains}
    items = records(samples.out, "evolved")
    mc_right = {r["question"]: f"ANSWER: {r['gold']}" for r in items}
    (record,) = records(updates.out, "updates", "updates")
    old = {record["question"]: record["outdated_answers"][0]}
    runs = {
        "multi_hop": (
            samples.out,
            "kgdiff_gen",
            chains_right,
            {"config": "multi_hop", "split": "hops_2"},
        ),
        "mc": (samples.out, "kgdiff_mc", mc_right, {"split": "evolved"}),
        "updates": (updates.out, "kgdiff_gen", old, {"config": "updates", "split": "updates"}),
    }
    reports = run_inspect_many(tmp_path_factory.mktemp("inspect"), list(runs.values()))
    return dict(zip(runs, reports, strict=True))


def test_inspect_answers_the_real_multi_hop_questions(
    inspect_reports: dict[str, dict[str, Any]],
) -> None:
    assert inspect_reports["multi_hop"]["metrics"]["em/mean"] == 1.0


def test_inspect_answers_the_real_multiple_choice_items(
    inspect_reports: dict[str, dict[str, Any]],
) -> None:
    assert inspect_reports["mc"]["metrics"]["choice/accuracy"] == 1.0


def test_inspect_counts_the_outdated_answer_of_an_update(
    inspect_reports: dict[str, dict[str, Any]],
) -> None:
    report = inspect_reports["updates"]
    assert report["samples"] == 1
    assert report["metrics"]["outdated_rate/mean"] == 1.0 and report["metrics"]["em/mean"] == 0.0
