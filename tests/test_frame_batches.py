"""Records built column by column do not depend on how a split is cut into batches: an export
of the real samples in batches of 7 rows (written in chunks of 5 records) holds the records an
export in one batch holds, in the same order (kgdiff.export.dataset.frame_chunks). Only the
true/false balance, made within the first batch, may differ, by one record per split at most.
A split's rows read a part at a time in id order are the parts of the whole split sorted."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import polars as pl
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kgdiff.export.dataset import frame_chunks
from kgdiff.export.dataset.sorted_rows import ID
from tests.benchmark_exports import export, records

CONFIGS = ("qa", "temporal", "pools")
TRUTH = ("tf_statement", "tf_label")


def _splits(folder: Path) -> dict[tuple[str, str], list[dict[str, Any]]]:
    found = {}
    for config in CONFIGS:
        for path in sorted((folder / "data" / config).glob("*.jsonl")):
            found[(config, path.stem)] = records(folder, path.stem, config)
    return found


def _without_truth(record: dict[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in record.items() if name not in TRUTH}


@pytest.fixture(scope="module")
def cut(export_sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The export in batches of 7 rows and chunks of 5 records, made once for both tests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(frame_chunks, "BATCH", 7)
        patch.setattr(frame_chunks, "CHUNK", 5)
        return export(export_sample_store, tmp_path_factory.mktemp("cut"), configs=CONFIGS).out


def test_batches_of_any_size_give_the_same_records(
    export_sample_store: Path, cut: Path, tmp_path: Path
) -> None:
    whole = export(export_sample_store, tmp_path / "whole", configs=CONFIGS).out
    one, other = _splits(whole), _splits(cut)
    assert one.keys() == other.keys() and sum(len(rows) for rows in one.values()) > 60
    for split, rows in one.items():
        assert [_without_truth(r) for r in rows] == [_without_truth(r) for r in other[split]]
        changed = [a["id"] for a, b in zip(rows, other[split], strict=True) if a != b]
        assert len(changed) <= 1, (split, changed)


def test_a_large_split_is_written_in_row_groups_of_a_chunk(cut: Path) -> None:
    stable = pq.ParquetFile(cut / "data" / "qa" / "stable.parquet")
    sizes = [stable.metadata.row_group(i).num_rows for i in range(stable.num_row_groups)]
    assert stable.num_row_groups > 2 and max(sizes) <= 5


_SUBJECTS = st.sampled_from(["Q1", "Q10", "Q2", "L1", "L1-F1", "L1-S2", "P31", "Q1-x"])


@given(
    groups=st.lists(st.tuples(_SUBJECTS, st.sampled_from(["P17", "P6", "P1082"])), unique=True),
    size=st.integers(1, 9),
    within=st.sampled_from([None, "subject"]),
    on_disk=st.booleans(),
)
def test_parts_in_id_order_are_those_of_the_whole_sorted_frame(
    groups: list[tuple[str, str]], size: int, within: str | None, on_disk: bool
) -> None:
    # "L1-F1/…" sorts before "L1/…": the ids' order, not the subjects'
    rows = pl.DataFrame(
        {
            "subject": [subject for subject, _ in groups],
            "pid": [pid for _, pid in groups],
            "answers": [
                [f"{subject}-{index}"] * index for index, (subject, _) in enumerate(groups)
            ],
        },
        schema={"subject": pl.String(), "pid": pl.String(), "answers": pl.List(pl.String())},
    )
    key = pl.concat_str(pl.lit("qa/"), "subject", pl.lit("/"), "pid")
    whole = rows.with_columns(key.alias(ID)).sort(ID)
    with tempfile.TemporaryDirectory() as folder:
        lazy = rows.lazy()
        if on_disk:  # as the export's groups: a file in row groups of two rows (unsorted here)
            path = Path(folder) / "rows.parquet"
            rows.write_parquet(path, row_group_size=2, statistics=True)
            lazy = pl.scan_parquet(path)
        parts = list(frame_chunks.id_ordered_parts(lazy, key, size, within))
    assert [part.height for part in parts] == [
        min(size, whole.height - offset) for offset in range(0, whole.height, size)
    ]
    joined = pl.concat([whole.clear(), *parts])
    assert joined.equals(whole)
