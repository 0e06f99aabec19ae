"""What an export named, kept on disk a batch at a time (kgdiff/export/inputs/named_spill.py),
reads back as the rows of the ids asked, sorted, whatever the batches and the ids asked (ids
named in no batch, repeats, nulls); the ids not kept are those asked minus those named; the
files go when the spill is closed."""

from __future__ import annotations

import tempfile
from pathlib import Path

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from kgdiff.export.inputs.named_spill import NamedSpill

SCHEMA = pl.Schema({"value": pl.String(), "texts": pl.List(pl.String())})
IDS = st.sampled_from([f"Q{n}" for n in (1, 2, 10, 11, 100, 5, 55, 9, 7, 70)])


@given(
    named=st.lists(st.lists(IDS, unique=True, max_size=6), max_size=4),
    asked=st.lists(st.one_of(IDS, st.none()), max_size=12),
)
def test_rows_read_back_are_those_of_the_ids_asked(
    named: list[list[str]], asked: list[str | None]
) -> None:
    seen: set[str] = set()
    batches = []
    for batch in named:  # each id named once, in the first batch that holds it
        fresh = sorted(set(batch) - seen)
        seen |= set(fresh)
        batches.append(fresh)
    with tempfile.TemporaryDirectory() as folder:
        spill = NamedSpill("value", SCHEMA, Path(folder))
        for batch in batches:
            rows = {"value": batch, "texts": [[f"name of {qid}"] for qid in batch]}
            spill.add("snap", pl.DataFrame(rows, schema=SCHEMA))
        wanted = pl.Series(asked, dtype=pl.String())
        found = spill.of("snap", wanted)
        expected = sorted({qid for qid in asked if qid in seen})
        assert found.get_column("value").to_list() == expected
        assert found.get_column("texts").to_list() == [[f"name of {qid}"] for qid in expected]
        assert spill.of("snap", wanted, ["value"]).columns == ["value"]
        assert spill.of("other", wanted).is_empty()
        missing = spill.missing("snap", wanted).to_list()
        assert missing == sorted({qid for qid in asked if qid is not None} - seen)
        spill.close()
        assert list(Path(folder).iterdir()) == []
