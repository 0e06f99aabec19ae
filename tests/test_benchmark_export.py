"""kgdiff export benchmark, config qa, on the real samples: the folder loads with the datasets
library, every record is its group's classification, and the export is reproducible."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import yaml

import kgdiff
from kgdiff.export.benchmark import BenchmarkExport
from kgdiff.export.dataset.schema import QA_SCHEMA
from kgdiff.export.relations.phrasing import date_phrase
from kgdiff.export.scoring.report import score_predictions
from kgdiff.export.scoring.text_match import normalise
from kgdiff.valuetext import is_entity
from tests.benchmark_exports import (
    SAMPLES_WINDOW,
    SPLITS,
    all_records,
    export,
    file_bytes,
    records,
)


@pytest.fixture(scope="module")
def exported(
    export_sample_store: Path, tmp_path_factory: pytest.TempPathFactory
) -> BenchmarkExport:
    return export(export_sample_store, tmp_path_factory.mktemp("qa") / "bench", **SAMPLES_WINDOW)


@pytest.fixture(scope="module")
def folder(exported: BenchmarkExport) -> Path:
    return exported.out


def front_matter(folder: Path) -> dict[str, Any]:
    text = (folder / "README.md").read_text(encoding="utf-8")
    head, _, _ = text.removeprefix("---\n").partition("\n---\n")
    loaded = yaml.safe_load(head)
    assert isinstance(loaded, dict)
    return loaded


def test_the_real_samples_give_records_in_every_split(exported: BenchmarkExport) -> None:
    counts = exported.configs["qa"]
    assert list(counts) == list(SPLITS)
    assert counts["stable"] > 20 and counts["evolved"] > 0 and counts["uncharted"] > 0


def test_every_split_loads_offline_with_the_datasets_library(
    folder: Path, exported: BenchmarkExport, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    for split in SPLITS:
        loaded = datasets.load_dataset(str(folder), "qa", split=split, cache_dir=str(tmp_path))
        assert loaded.num_rows == exported.configs["qa"][split]
        assert loaded.column_names == list(QA_SCHEMA)
        assert loaded.to_list() == records(folder, split)


def test_every_record_is_the_classification_of_its_group(
    export_sample_store: Path, folder: Path
) -> None:
    # the export asks substantive changes only as evolved (docs/benchmark-export.md)
    window = SAMPLES_WINDOW
    groups = kgdiff.open(export_sample_store).classify(
        window["cutoff"], window["init"], window["current"], gap=window["gap"], substantive=True
    )
    by_key = {(row["subject"], row["pid"]): row for row in groups.iter_rows(named=True)}
    exported = all_records(folder)
    assert exported
    for record in exported:
        group = by_key[(record["subject"], record["pid"])]
        assert record["id"] == f"qa/{record['subject']}/{record['pid']}"
        for key in ("level", "latest", "outdated", "all_answers", "change_nature"):
            assert record[key] == group[key], (record["id"], key)
        expected_kind = group["change_kind"] if group["level"] == "evolved" else None
        assert record["change_kind"] == expected_kind
        assert record["subject_label"] == group["subject_label"]
        assert (
            record["answer_labels"]
            == [label for label in group["latest_labels"] if label not in group["latest"]]
            or record["answer_labels"]
        )  # non-items render their values


def test_answers_hold_labels_and_aliases_of_the_latest_objects(
    export_sample_store: Path, folder: Path
) -> None:
    names = kgdiff.open(export_sample_store).sql(
        "SELECT qid, kind, value FROM labels WHERE lang = 'en' AND kind IN ('label', 'alias')"
    )
    known: dict[str, set[str]] = {}
    for qid, _kind, value in names.iter_rows():
        known.setdefault(qid, set()).add(value)
    with_aliases = 0
    for record in all_records(folder):
        assert set(record["answer_labels"]) <= set(record["answers"])
        if not all(is_entity(value) for value in record["latest"]):
            continue
        names_of_latest = set().union(*(known.get(v, set()) for v in record["latest"]))
        assert set(record["answers"]) <= names_of_latest, record["id"]
        with_aliases += len(record["answers"]) > len(record["answer_labels"])
        outdated_names = set().union(*(known.get(v, set()) for v in record["outdated"]))
        assert set(record["outdated_answers"]) <= outdated_names
    assert with_aliases > 10


def test_dates_and_strings_are_answered_in_words(folder: Path) -> None:
    inception = [r for r in all_records(folder) if r["pid"] == "P571"]
    assert inception
    for record in inception:
        answer = record["answers"][0]  # (the Earth's "4.54 billion years ago" in this window)
        # a year below 1000 says its era ("476 CE")
        assert answer[-4:].isdigit() or answer.endswith(("century", "BCE", " CE", "years ago"))
        assert not any("T00:00:00Z" in answer for answer in record["answers"])


def test_options_follow_the_rules(folder: Path) -> None:
    for record in all_records(folder):
        options, kinds = record["options"], record["choice_types"]
        assert len(options) == len(kinds) == 4
        gold = ord(record["gold"]) - ord("A")
        assert kinds[gold] == "correct" and kinds.count("correct") == 1
        assert options[gold] in record["answer_labels"]
        assert kinds.count("unknown") == 1
        latest = {normalise(text) for text in record["answers"]}
        outdated = {normalise(text) for text in record["outdated_answers"]}
        for option, kind in zip(options, kinds, strict=True):
            if kind == "noise":
                assert normalise(option) not in latest | outdated
            if kind == "outdated":
                assert option in record["outdated_answers"]
        assert not {normalise(text) for text in record["outdated_answers"]} & latest
        assert ("outdated" in kinds) == bool(record["outdated_answers"]), record["id"]
        assert len({normalise(option) for option in options}) == 4
        assert record["mc_question"].startswith(record["question"])


def test_true_false_statements_take_both_labels_in_every_split(folder: Path) -> None:
    for split in SPLITS:
        labels = {record["tf_label"] for record in records(folder, split)}
        if len(records(folder, split)) >= 2:
            assert labels == {True, False}, split
    for record in all_records(folder):
        named = [o for o, k in zip(record["options"], record["choice_types"], strict=True)]
        # a date as a sentence says it: "1630" as "in 1630"
        said = [*named, *(date_phrase(option) for option in named)]
        assert any(option in record["tf_statement"] for option in said)


def test_a_re_export_is_byte_identical(
    export_sample_store: Path, folder: Path, tmp_path: Path
) -> None:
    again = export(export_sample_store, tmp_path / "again", **SAMPLES_WINDOW).out
    assert file_bytes(again) == file_bytes(folder)


def test_a_different_seed_changes_the_order_of_options_and_nothing_else(
    export_sample_store: Path, folder: Path, tmp_path: Path
) -> None:
    seeded = export(export_sample_store, tmp_path / "s", seed=7, **SAMPLES_WINDOW)
    other = {r["id"]: r for r in all_records(seeded.out)}
    base = {r["id"]: r for r in all_records(folder)}
    assert other.keys() == base.keys()
    moved = 0
    for key, record in base.items():
        pairs = sorted(zip(record["options"], record["choice_types"], strict=True))
        again = other[key]
        assert pairs == sorted(zip(again["options"], again["choice_types"], strict=True))
        moved += again["options"] != record["options"]
        fixed = set(record) - {"options", "choice_types", "gold", "mc_question"}
        fixed -= {"tf_statement", "tf_label"}  # the seed also draws the true/false statement
        assert {k: record[k] for k in fixed} == {k: again[k] for k in fixed}
    assert moved > len(base) / 2


def test_limit_keeps_at_most_n_records_per_split_chosen_by_the_seed(
    export_sample_store: Path, folder: Path, tmp_path: Path
) -> None:
    small = export(export_sample_store, tmp_path / "small", limit=5, **SAMPLES_WINDOW).out
    build = json.loads((small / "kgdiff_build.json").read_text())
    assert build["parameters"]["limit"] == 5
    full = {r["id"]: r for r in all_records(folder)}
    for split in SPLITS:
        kept = records(small, split)
        assert len(kept) == min(5, len(records(folder, split)))
        assert [r["id"] for r in kept] == sorted(r["id"] for r in kept)
        for record in kept:
            assert record["options"] == full[record["id"]]["options"]


def test_the_build_file_counts_splits_and_what_was_left_out(
    folder: Path, exported: BenchmarkExport
) -> None:
    build = json.loads((folder / "kgdiff_build.json").read_text())
    qa = build["configs"]["qa"]
    assert {s: qa["splits"][s]["records"] for s in SPLITS} == exported.configs["qa"]
    assert set(qa["levels_left_out"]) <= {"recent", "retracted", "ambiguous", "not_covered"}
    assert {"retracted", "not_covered"} <= set(qa["levels_left_out"])
    assert qa["left_out"]["relation_not_in_catalogue"] > 0
    assert build["parameters"]["init"] == "2013-12-21"
    assert build["parameters"]["current"] == "2014-10-11"
    assert build["store"]["fingerprint"]
    assert build["store"]["current_snapshot"] == "wd-2014-10"


def test_the_card_parses_and_names_every_data_file(folder: Path) -> None:
    card = front_matter(folder)
    assert card["license"] == ["cc0-1.0", "cc-by-sa-4.0"]
    (config,) = card["configs"]
    assert config["config_name"] == "qa"
    listed = {entry["split"]: entry["path"] for entry in config["data_files"]}
    assert listed == {split: f"data/qa/{split}.parquet" for split in SPLITS}
    on_disk = {str(p.relative_to(folder)) for p in (folder / "data").rglob("*.parquet")}
    assert set(listed.values()) == on_disk
    for split in SPLITS:
        assert (folder / "data" / "qa" / f"{split}.jsonl").is_file()
    (info,) = card["dataset_info"]
    assert [feature["name"] for feature in info["features"]] == list(QA_SCHEMA)
    prose = (folder / "README.md").read_text(encoding="utf-8")
    for needle in ("CC0", "CC BY-SA 4.0", "2014-10-11", "kgdiff version", "fingerprint"):
        assert needle in prose


def test_parquet_and_jsonl_hold_the_same_rows(folder: Path) -> None:
    for split in SPLITS:
        frame = pl.read_parquet(folder / "data" / "qa" / f"{split}.parquet")
        assert frame.schema == QA_SCHEMA
        assert frame.to_dicts() == records(folder, split)


def test_the_scoring_reads_the_records_as_they_are(folder: Path) -> None:
    evolved = records(folder, "evolved")
    gold = {r["id"]: r["answer_labels"][0] for r in evolved}
    assert score_predictions(evolved, gold)["overall"]["em"] == 1.0
    letters = {r["id"]: r["gold"] for r in evolved}
    assert score_predictions(evolved, letters, "mc")["overall"]["mc_accuracy"] == 1.0
    stale = {r["id"]: r["outdated_answers"][0] for r in evolved if r["outdated_answers"]}
    assert stale
    report = score_predictions([r for r in evolved if r["id"] in stale], stale)
    assert report["overall"]["outdated_rate"] == 1.0 and report["overall"]["em"] == 0.0
    truths = {r["id"]: str(r["tf_label"]).lower() for r in evolved}
    assert score_predictions(evolved, truths, "tf")["overall"]["tf_accuracy"] == 1.0
