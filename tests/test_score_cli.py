"""``kgdiff score`` on a benchmark folder made from the real samples (tests/bench_folder.py):
gold answers, outdated answers, aliases, multiple choice and true/false, the JSON keys, and
one-line errors with their exit codes (docs/scoring.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from kgdiff.export.scoring.text_match import normalise
from tests.bench_folder import private_store, write_qa_folder
from tests.paths import run_kgdiff

Records = dict[str, list[dict[str, Any]]]
GENERATION_KEYS = {"n", "em", "f1", "alias_em", "fuzzy", "outdated_rate", "unknown_rate"}


@pytest.fixture(scope="module")
def bench(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Records]:
    folder = tmp_path_factory.mktemp("score") / "bench"
    folder.mkdir()
    return folder, write_qa_folder(private_store(sample_store, folder.parent), folder)


def predictions(path: Path, answers: dict[str, Any]) -> Path:
    path.write_text(
        "".join(json.dumps({"id": k, "prediction": v}) + "\n" for k, v in answers.items())
    )
    return path


def score(folder: Path, file: Path, *options: str) -> dict[str, Any]:
    done = run_kgdiff("score", str(file), "--dataset", str(folder), "--json", *options)
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


def every(records: Records) -> list[dict[str, Any]]:
    return [record for split in records.values() for record in split]


def test_gold_answers_score_one(bench: tuple[Path, Records], tmp_path: Path) -> None:
    folder, records = bench
    gold = {r["id"]: r["answer_labels"][0] for r in every(records)}
    report = score(folder, predictions(tmp_path / "gold.jsonl", gold))
    # the records of dates (an inception) are also matched as dates, the gold's words read
    assert set(report["overall"]) - {"date_match"} == GENERATION_KEYS
    assert report["overall"].get("date_match", 1.0) == 1.0
    assert report["overall"]["n"] == len(gold) == report["records"]
    assert report["overall"]["em"] == 1.0
    assert report["overall"]["outdated_rate"] == 0.0
    assert set(report["by_level"]) == {"stable", "evolved", "uncharted"}
    assert all(tally["em"] == 1.0 for tally in report["by_relation"].values())
    assert report["splits"] == ["stable", "evolved", "uncharted"]
    assert report["missing"] == report["unmatched"] == 0


def test_outdated_answers_on_evolved(bench: tuple[Path, Records], tmp_path: Path) -> None:
    folder, records = bench
    old = {r["id"]: r["outdated_answers"][0] for r in records["evolved"]}
    report = score(folder, predictions(tmp_path / "old.jsonl", old), "--split", "evolved")
    assert report["overall"]["n"] == len(old) > 0
    assert report["overall"]["outdated_rate"] == 1.0
    assert report["overall"]["em"] == report["overall"]["alias_em"] == 0.0
    assert report["splits"] == ["evolved"]


def test_aliases_count_with_alias_em(bench: tuple[Path, Records], tmp_path: Path) -> None:
    folder, records = bench
    aliases = {}
    for record in every(records):
        labels = {normalise(label) for label in record["answer_labels"]}
        others = [a for a in record["answers"] if normalise(a) not in labels]
        if others:
            aliases[record["id"]] = others[0]
    assert aliases, "the folder's records must include an alias"
    report = score(folder, predictions(tmp_path / "alias.jsonl", aliases))
    assert report["overall"]["alias_em"] == 1.0
    assert report["overall"]["em"] == 0.0
    assert report["missing"] == report["records"] - len(aliases)


def test_multiple_choice_and_true_false(bench: tuple[Path, Records], tmp_path: Path) -> None:
    folder, records = bench
    letters = {r["id"]: r["gold"] for r in every(records)}
    report = score(folder, predictions(tmp_path / "mc.jsonl", letters), "--task", "mc")
    assert report["overall"]["mc_accuracy"] == 1.0
    outdated = {r["id"]: "ABCD"[r["choice_types"].index("outdated")] for r in records["evolved"]}
    report = score(folder, predictions(tmp_path / "mco.jsonl", outdated), "--task", "mc")
    assert report["overall"]["outdated_rate"] == 1.0
    truths = {r["id"]: "true" if r["tf_label"] else "false" for r in every(records)}
    report = score(folder, predictions(tmp_path / "tf.jsonl", truths), "--task", "tf")
    assert report["overall"]["tf_accuracy"] == 1.0


def test_the_table(bench: tuple[Path, Records], tmp_path: Path) -> None:
    folder, records = bench
    gold = {r["id"]: r["answer_labels"][0] for r in records["stable"]}
    file = predictions(tmp_path / "gold.jsonl", {**gold, "Q0-P0": "nothing"})
    done = run_kgdiff("score", str(file), "--dataset", str(folder))
    assert done.returncode == 0, done.stderr
    assert "outdated" in done.stdout and "rate" in done.stdout  # a stacked header
    assert f"{len(gold)} of {len(every(records))} records scored" in done.stdout
    assert "1 prediction names no record (e.g. Q0-P0)" in done.stdout


def test_a_malformed_line_is_one_error(bench: tuple[Path, Records], tmp_path: Path) -> None:
    folder, records = bench
    file = tmp_path / "bad.jsonl"
    first = every(records)[0]["id"]
    file.write_text(json.dumps({"id": first, "prediction": "x"}) + '\n{"id": 7}\n')
    done = run_kgdiff("score", str(file), "--dataset", str(folder))
    assert done.returncode == 3
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"error: {file}:2: ")
    assert "$.id" in line


@pytest.mark.parametrize(
    ("options", "code", "message"),
    [
        (
            ("--split", "later"),
            2,
            "the qa config has no split 'later' (it has stable, evolved, uncharted)",
        ),
        (("--config", "pools"), 2, "no pools config (its configs are qa)"),
        (("--task", "essay"), 2, "--task 'essay': choose one of generation, mc, tf"),
    ],
)
def test_usage_errors(
    bench: tuple[Path, Records], tmp_path: Path, options: tuple[str, ...], code: int, message: str
) -> None:
    folder, _ = bench
    file = predictions(tmp_path / "p.jsonl", {"x": "y"})
    done = run_kgdiff("score", str(file), "--dataset", str(folder), *options)
    assert done.returncode == code
    (line,) = done.stderr.strip().splitlines()
    assert message in line


def test_a_missing_column_names_the_file(bench: tuple[Path, Records], tmp_path: Path) -> None:
    folder, _ = bench
    copy = tmp_path / "copy"
    (copy / "data" / "qa").mkdir(parents=True)
    source = folder / "data" / "qa" / "stable.parquet"
    pl.read_parquet(source).drop("outdated_answers").write_parquet(copy / "data/qa/stable.parquet")
    done = run_kgdiff("score", str(predictions(tmp_path / "p.jsonl", {})), "--dataset", str(copy))
    assert done.returncode == 3
    assert "stable.parquet: no outdated_answers column" in done.stderr
