"""The commands' tables at 80 columns (issue 39, item 6): no snapshot name, date or key figure
cut short by rich (``wd-2013-…``, ``outdated_…``), every line within the width, and counts
that agree with their noun (``1 group``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bench_folder import private_store, write_qa_folder
from tests.paths import run_kgdiff

NARROW = {"COLUMNS": "80"}
BOX = ("│", "┃", "┏", "┡", "└", "├", "╇", "┗")


def table_lines(output: str) -> list[str]:
    """The lines of the tables of ``output`` (their borders and rows)."""
    return [line for line in output.splitlines() if line.startswith(BOX)]


def check_fits(output: str) -> list[str]:
    """The table lines of ``output``, each within 80 columns and none with a cut word."""
    lines = table_lines(output)
    assert lines, output
    assert all(len(line) <= 80 for line in lines), output
    assert not [line for line in lines if "…" in line], output
    return lines


def narrow(*args: str) -> str:
    done = run_kgdiff(*args, env=NARROW)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_snapshots_show_whole_names_and_dates(demo_store: Path) -> None:
    lines = check_fits(narrow("snapshots", "--store", str(demo_store)))
    rows = " ".join(lines)
    for name, day in (("wd-2013-12", "2013-12-21"), ("wd-2014-12", "2014-12-31")):
        assert f"│ {name} │ {day} │" in rows
    assert "│ enwiki-2016-05 │ enwiki │ 2016-05-01 │" in rows


def test_classify_counts_agree_with_their_noun(demo_store: Path) -> None:
    shown = narrow("classify", "--cutoff", "2014-10-11", "--store", str(demo_store))
    check_fits(shown)
    assert "unknown, 1 group: ambiguous groups are not judged" in shown
    assert " 1 groups" not in shown


def test_a_big_entitys_timeline_is_whole(demo_store: Path) -> None:
    lines = check_fits(narrow("timeline", "Q64", "--store", str(demo_store)))
    assert any("│ 2013-12-21 │ 2014-10-11 │" in line for line in lines)


@pytest.fixture(scope="module")
def bench(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("narrow") / "bench"
    folder.mkdir()
    records = write_qa_folder(private_store(sample_store, folder.parent), folder)
    answers = [record for split in records.values() for record in split][1:]  # one missing
    lines = [json.dumps({"id": r["id"], "prediction": r["answer_labels"][0]}) for r in answers]
    (folder.parent / "predictions.jsonl").write_text("\n".join(lines) + "\n")
    return folder


def test_scores_show_every_rate_whole(bench: Path) -> None:
    predictions = str(bench.parent / "predictions.jsonl")
    shown = narrow("score", predictions, "--dataset", str(bench))
    lines = check_fits(shown)
    header = " ".join(lines[:4])
    for word in ("alias", "fuzzy", "outdated", "unknown", "rate"):
        assert word in header
    assert "1 record has no prediction" in shown
