"""The benchmark generator builds its universe range by range: the store it writes is the
same, row for row and in the same order, however many ranges it is cut into; and its tables
come out sorted as a snapshot's are, though the labels are never sorted whole."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from bench.classify_gen import world
from bench.classify_gen.generate import generate
from bench.classify_gen.model import GenParams

PARAMS = GenParams(statements=40_000, snapshots=2)


def _rows(store: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every snapshot table's rows, in file order."""
    found = {}
    with duckdb.connect() as con:
        for path in sorted(store.glob("snapshots/*/*/part-*.parquet")):
            query = "SELECT * FROM read_parquet(?, file_row_number = true) ORDER BY file_row_number"
            found[str(path.relative_to(store))] = con.execute(query, [str(path)]).fetchall()
    return found


def test_the_universe_cut_into_ranges_writes_the_same_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = generate(tmp_path / "whole", PARAMS, 2, "1GB")
    monkeypatch.setattr(world, "SUBJECTS_PER_RANGE", 700)
    monkeypatch.setattr(world, "STATEMENTS_PER_RANGE", 6_000)
    with duckdb.connect() as con:
        con.execute("CREATE TABLE subjects AS SELECT 'Q' || range AS subject FROM range(1, 5000)")
        assert len(world.subject_bounds(con, PARAMS.statements // world.STATEMENTS_PER_RANGE)) == 5
    ranged = generate(tmp_path / "ranged", PARAMS, 2, "1GB")
    assert ranged["base_subjects"] == whole["base_subjects"]
    rows = _rows(tmp_path / "whole")
    assert len(rows) == 10 and len(rows[min(rows)]) > 1_000
    assert _rows(tmp_path / "ranged") == rows
    for name, found in rows.items():
        if "/labels/" in name:  # (qid, kind, lang, ordinal): a label's key
            assert found == sorted(found, key=lambda row: (row[0], row[1], row[2], row[4]))
        if "/statements/" in name:  # (subject, pid, ordinal)
            assert found == sorted(found, key=lambda row: (row[1], row[2], row[3]))
