"""The task files of a benchmark folder: what write_tasks writes (kgdiff's scoring modules
copied unchanged among them), and lm-eval and Inspect running them on a folder made from the
real samples (tests/bench_folder.py), a date's answer scored by ``date_match`` as ``kgdiff
score`` scores it (docs/benchmark-tasks.md)."""

from __future__ import annotations

import math
import shutil
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest

import kgdiff.portable
from kgdiff.errors import InputError
from kgdiff.export.scoring.report import generation_score
from kgdiff.export.tasks.writer import write_tasks
from tests.bench_folder import PER_SPLIT, private_store, write_qa_folder
from tests.task_tools import read_yaml, run_inspect_many, run_lm_eval

BIN = Path(sys.executable).parent
Records = dict[str, list[dict[str, Any]]]


@pytest.fixture(scope="module")
def bench(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Records]:
    """A qa folder of the real samples with its task files."""
    folder = tmp_path_factory.mktemp("bench") / "kgdiff-bench"
    folder.mkdir()
    records = write_qa_folder(private_store(sample_store, folder.parent), folder)
    write_tasks(folder, ["qa"])
    return folder, records


def test_write_tasks_writes_a_task_per_form_and_split(bench: tuple[Path, Records]) -> None:
    folder, records = bench
    lm_eval = folder / "tasks" / "lm_eval"
    names = sorted(path.name for path in lm_eval.iterdir())
    tasks = [f"kgdiff_qa_{form}_{split}.yaml" for form in ("gen", "mc", "tf") for split in records]
    groups = [f"kgdiff_qa_{form}.yaml" for form in ("gen", "mc", "tf")]
    assert names == sorted([*tasks, *groups, "kgdiff.yaml", "kgdiff_metrics.py", "kgdiff_portable"])
    inspect = sorted(path.name for path in (folder / "tasks" / "inspect").iterdir())
    assert inspect == ["kgdiff_metrics.py", "kgdiff_portable", "kgdiff_tasks.py"]
    shipped = Path(kgdiff.portable.__file__).parent
    modules = sorted(path.name for path in shipped.glob("*.py"))
    assert "generation.py" in modules
    for tool in ("lm_eval", "inspect"):
        copy = folder / "tasks" / tool / "kgdiff_portable"
        assert sorted(path.name for path in copy.iterdir()) == modules
        for name in modules:
            assert (copy / name).read_bytes() == (shipped / name).read_bytes()
    assert "lm_eval --model" in (folder / "tasks" / "README.md").read_text()
    task = read_yaml(lm_eval / "kgdiff_qa_mc_evolved.yaml")
    assert task["task"] == "kgdiff_qa_mc_evolved"
    assert task["dataset_path"] == "parquet"
    data_file = task["dataset_kwargs"]["data_files"]["evolved"]
    assert (folder / data_file).is_file()
    assert task["doc_to_choice"] == ("function", "kgdiff_metrics.mc_choices")
    group = read_yaml(lm_eval / "kgdiff_qa_gen.yaml")
    assert group["task"] == [
        f"kgdiff_qa_gen_{split}" for split in ("stable", "evolved", "uncharted")
    ]
    assert read_yaml(lm_eval / "kgdiff.yaml")["task"] == [n.removesuffix(".yaml") for n in groups]
    gen = read_yaml(lm_eval / "kgdiff_qa_gen_evolved.yaml")
    assert [m["metric"] for m in gen["metric_list"]][-2:] == ["date_match", "number_match"]
    # a metric only some records have is reported per split, not averaged by split sizes
    assert [m["metric"] for m in group["aggregate_metric_list"]] == [
        "em", "alias_em", "f1", "outdated_rate", "unknown_rate",
    ]  # fmt: skip


def test_write_tasks_is_byte_stable_and_replaces_old_files(bench: tuple[Path, Records]) -> None:
    folder, _ = bench
    copy = folder.parent / "again"
    shutil.copytree(folder, copy)
    stale = copy / "tasks" / "lm_eval" / "kgdiff_qa_gen_gone.yaml"
    stale.write_text("task: kgdiff_qa_gen_gone\n")
    written = write_tasks(copy, ["qa", "chains"])  # a config without forms: nothing for it
    assert not stale.exists()
    for path in written:
        assert path.read_bytes() == (folder / path.relative_to(copy)).read_bytes()
    assert write_tasks(copy, ["chains"]) == []


def test_write_tasks_names_a_missing_column(bench: tuple[Path, Records], tmp_path: Path) -> None:
    folder, _ = bench
    shutil.copytree(folder / "data", tmp_path / "data")
    evolved = tmp_path / "data" / "qa" / "evolved.parquet"
    pl.read_parquet(evolved).drop("gold").write_parquet(evolved)
    with pytest.raises(InputError, match=r"evolved\.parquet: no gold column; the mc tasks"):
        write_tasks(tmp_path, ["qa"])


def test_lm_eval_runs_the_task_files(bench: tuple[Path, Records], tmp_path: Path) -> None:
    folder, records = bench
    tasks = "kgdiff_qa_gen,kgdiff_qa_mc,kgdiff_qa_tf"
    results = run_lm_eval(folder, tmp_path, tasks, limit=PER_SPLIT)
    for form, metric in (("gen", "outdated_rate"), ("mc", "mc_accuracy"), ("tf", "tf_accuracy")):
        for split in ("stable", "evolved", "uncharted"):
            assert f"{metric},none" in results[f"kgdiff_qa_{form}_{split}"]
        assert f"{metric},none" in results[f"kgdiff_qa_{form}"]
    # the dummy model answers "lol": no answer of any record
    assert results["kgdiff_qa_gen_evolved"]["em,none"] == 0.0
    # date_match and number_match for the records that have them, as kgdiff score has them
    for split, rows in records.items():
        scores = [generation_score("lol", row) for row in rows]
        for metric in ("date_match", "number_match"):
            found = [score[metric] for score in scores if metric in score]
            reported = results[f"kgdiff_qa_gen_{split}"].get(f"{metric},none")
            assert reported == (sum(found) / len(found) if found else None), (split, metric)
    assert results["kgdiff_qa_gen_evolved"]["date_match,none"] == 0.0  # Washington's birthday
    assert "date_match,none" not in results["kgdiff_qa_gen"]


@pytest.fixture(scope="module")
def inspect_reports(
    bench: tuple[Path, Records], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, dict[str, Any]]:
    """The reports of every Inspect run of the tests below on the folder's evolved split, by
    name, run in one process (each run in a process of its own imported Inspect anew: 6 s
    a run on two loaded cores); each test checks its own runs."""
    folder, records = bench
    evolved = records["evolved"]
    right = {r["question"]: r["answer_labels"][0] for r in evolved}
    outdated = {r["question"]: r["outdated_answers"][0] for r in evolved}
    (washington,) = [r for r in evolved if r["answer_labels"] == ["22 February 1732"]]
    dated = right | {washington["question"]: "February 22, 1732"}
    mc_right = {r["mc_question"]: f"ANSWER: {r['gold']}" for r in evolved}
    mc_outdated = {
        r["mc_question"]: f"ANSWER: {'ABCD'[r['choice_types'].index('outdated')]}" for r in evolved
    }
    tf_right = {r["tf_statement"]: str(r["tf_label"]) for r in evolved}
    runs = {
        "gen right": ("kgdiff_gen", right, 5),
        "gen outdated": ("kgdiff_gen", outdated, 5),
        "gen dated": ("kgdiff_gen", dated, PER_SPLIT),
        "mc right": ("kgdiff_mc", mc_right, 5),
        "mc outdated": ("kgdiff_mc", mc_outdated, 5),
        "tf right": ("kgdiff_tf", tf_right, 5),
    }
    asked = [
        (folder, task, replies, {"limit": str(limit), "split": "evolved"})
        for task, replies, limit in runs.values()
    ]
    reports = run_inspect_many(tmp_path_factory.mktemp("inspect"), asked)
    for (_, _, limit), report in zip(runs.values(), reports, strict=True):
        assert report["samples"] == limit
    return dict(zip(runs, reports, strict=True))


def test_inspect_runs_generation(inspect_reports: dict[str, dict[str, Any]]) -> None:
    metrics = inspect_reports["gen right"]["metrics"]
    assert metrics["em/mean"] == 1.0
    assert metrics["outdated_rate/mean"] == 0.0
    metrics = inspect_reports["gen outdated"]["metrics"]
    assert metrics["em/mean"] == 0.0
    assert metrics["outdated_rate/mean"] == 1.0


def test_inspect_scores_a_date_by_date_match(
    bench: tuple[Path, Records], inspect_reports: dict[str, dict[str, Any]]
) -> None:
    _, records = bench
    (washington,) = [r for r in records["evolved"] if r["answer_labels"] == ["22 February 1732"]]
    metrics = inspect_reports["gen dated"]["metrics"]
    # the other records are answered by their label; the date in other words: em misses it
    assert metrics["em/mean"] == (PER_SPLIT - 1) / PER_SPLIT
    assert metrics["date_match/mean"] == 1.0  # over the one record that has it
    assert generation_score("February 22, 1732", washington)["date_match"] == 1.0
    assert math.isnan(metrics["number_match/mean"])  # no record of the split has it


def test_inspect_runs_multiple_choice(inspect_reports: dict[str, dict[str, Any]]) -> None:
    metrics = inspect_reports["mc right"]["metrics"]
    assert metrics["choice/accuracy"] == 1.0
    assert metrics["outdated_rate/mean"] == 0.0
    metrics = inspect_reports["mc outdated"]["metrics"]
    assert metrics["choice/accuracy"] == 0.0
    assert metrics["outdated_rate/mean"] == 1.0


def test_inspect_runs_true_false(inspect_reports: dict[str, dict[str, Any]]) -> None:
    metrics = inspect_reports["tf right"]["metrics"]
    assert metrics["match/accuracy"] == 1.0
