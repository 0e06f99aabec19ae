"""kgdiff export benchmark, config temporal, on the real samples: the same seed gives the
same bytes and another seed only reorders the options, ``--limit`` keeps the same records,
the splits load with the datasets library, the gold answers score 1 per kind, and the task
files (docs/benchmark-export.md#the-temporal-config, docs/scoring.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgdiff.export.benchmark import BenchmarkExport
from kgdiff.export.dataset.folder import read_records
from kgdiff.export.dataset.schema import TEMPORAL_SCHEMA
from kgdiff.export.scoring.report import score_predictions
from tests.benchmark_exports import export, file_bytes, records
from tests.paths import run_kgdiff
from tests.task_tools import run_lm_eval
from tests.test_benchmark_temporal import KINDS, every

CHOICE_KEYS = {"mc_question", "options", "choice_types", "gold", "tf_statement", "tf_label"}


@pytest.fixture(scope="module")
def done(export_sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    return export(export_sample_store, tmp_path_factory.mktemp("t") / "t", configs=("temporal",))


def test_the_same_seed_gives_the_same_bytes_and_another_only_reorders(
    done: BenchmarkExport, export_sample_store: Path, tmp_path: Path
) -> None:
    again = export(export_sample_store, tmp_path / "again", configs=("temporal",))
    assert file_bytes(again.out) == file_bytes(done.out)
    other = export(export_sample_store, tmp_path / "other", configs=("temporal",), seed=7)
    moved = 0
    for kind, built in every(done.out).items():
        changed = records(other.out, kind, "temporal")
        assert [r["id"] for r in changed] == [r["id"] for r in built]
        for old, new in zip(built, changed, strict=True):
            assert {k: v for k, v in old.items() if k not in CHOICE_KEYS} == {
                k: v for k, v in new.items() if k not in CHOICE_KEYS
            }
            assert sorted(old["options"]) == sorted(new["options"])
            moved += old["options"] != new["options"]
    assert moved > 0


def test_a_limit_keeps_the_same_records(
    done: BenchmarkExport, export_sample_store: Path, tmp_path: Path
) -> None:
    small = export(export_sample_store, tmp_path / "small", configs=("temporal",), limit=3)
    for kind, built in every(done.out).items():
        kept = records(small.out, kind, "temporal")
        assert len(kept) == min(3, len(built))
        # the same records (a split whose true/false labels all agree swaps one statement)
        same = [{k: v for k, v in r.items() if not k.startswith("tf_")} for r in built]
        assert all({k: v for k, v in r.items() if not k.startswith("tf_")} in same for r in kept)


def test_the_splits_load_offline_with_the_datasets_library(
    done: BenchmarkExport, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    for kind in KINDS:
        loaded = datasets.load_dataset(
            str(done.out), "temporal", split=kind, cache_dir=str(tmp_path / "cache")
        )
        assert loaded.column_names == list(TEMPORAL_SCHEMA)
        assert loaded.to_list() == records(done.out, kind, "temporal")


def test_gold_answers_score_one_per_kind(done: BenchmarkExport) -> None:
    rows = read_records(done.out, "temporal")
    gold = {row["id"]: row["answer_labels"][0] for row in rows}
    report = score_predictions(rows, gold)
    assert set(report["by_kind"]) == set(KINDS)
    for kind, tally in report["by_kind"].items():
        assert tally["em"] == tally["alias_em"] == 1.0 and tally["outdated_rate"] == 0.0
        assert ("date_match" in tally) == (kind in ("timestamp", "interval"))
    assert report["by_kind"]["timestamp"]["date_match"] == 1.0
    assert report["by_kind"]["unanswerable"]["unknown_rate"] == 1.0
    letters = score_predictions(rows, {row["id"]: row["gold"] for row in rows}, "mc")
    assert letters["overall"]["mc_accuracy"] == 1.0
    off = {r["id"]: str(int(r["date"][:4]) + 1) for r in rows if r["kind"] == "timestamp"}
    assert score_predictions(rows, off)["overall"]["date_match"] == 0.0


def test_the_task_files_ask_open_questions_and_multiple_choice(
    done: BenchmarkExport, tmp_path: Path
) -> None:
    names = {path.name for path in (done.out / "tasks" / "lm_eval").iterdir()}
    for kind in KINDS:
        assert f"kgdiff_temporal_gen_{kind}.yaml" in names
        assert f"kgdiff_temporal_mc_{kind}.yaml" in names
    assert not any("_tf" in name for name in names)
    results = run_lm_eval(done.out, tmp_path, "kgdiff_temporal_gen,kgdiff_temporal_mc", limit=3)
    for kind in KINDS:
        assert results[f"kgdiff_temporal_gen_{kind}"]["em,none"] == 0.0  # the dummy says "lol"
        assert "mc_accuracy,none" in results[f"kgdiff_temporal_mc_{kind}"]


def test_kgdiff_score_reports_each_kind(done: BenchmarkExport, tmp_path: Path) -> None:
    rows = read_records(done.out, "temporal")
    lines = [json.dumps({"id": r["id"], "prediction": r["answer_labels"][0]}) for r in rows]
    (tmp_path / "p.jsonl").write_text("\n".join(lines) + "\n")
    command = ("score", str(tmp_path / "p.jsonl"), "--dataset", str(done.out))
    ran = run_kgdiff(*command, "--config", "temporal", "--json")
    assert ran.returncode == 0, ran.stderr
    report = json.loads(ran.stdout)
    assert set(report["overall"]) == {
        "n", "em", "f1", "alias_em", "fuzzy", "outdated_rate", "unknown_rate", "date_match",
    }  # fmt: skip
    assert report["overall"]["em"] == report["overall"]["date_match"] == 1.0
    assert list(report["by_kind"]) == sorted(KINDS)
    table = run_kgdiff(*command, "--config", "temporal")
    assert table.returncode == 0 and "unanswerable" in table.stdout
    assert all(word in table.stdout for word in ("date", "match"))  # a stacked header


@pytest.mark.parametrize("size", [2, 15])
def test_other_option_counts(export_sample_store: Path, tmp_path: Path, size: int) -> None:
    done = export(export_sample_store, tmp_path / "o", configs=("temporal",), options=size)
    built = every(done.out)
    for record in (r for kind in KINDS for r in built[kind]):
        assert len(record["options"]) == len(record["choice_types"]) == size
        assert record["mc_question"].count("\n") == size + 1
        assert (
            record["choice_types"].count(
                "correct" if record["kind"] != "unanswerable" else "unknown"
            )
            == 1
        )
    left_out = json.loads((done.out / "kgdiff_build.json").read_text())["configs"]["temporal"]
    if size == 15:  # 12 date or duration offsets give at most 12 distractors
        assert not built["timestamp"] and not built["interval"]
        assert left_out["left_out"]["timestamp"]["too_few_options"] > 0
    else:
        assert all(built[kind] for kind in KINDS)
        assert all(r["tf_label"] for r in built["timestamp"])  # no distractor to state
