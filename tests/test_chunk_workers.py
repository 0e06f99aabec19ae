"""Records built by forked workers are the records built one chunk after the other: an
export of the real samples in small chunks gives the same bytes on one process and on
three (kgdiff.export.chunk_workers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgdiff.export import splits
from kgdiff.export.chunk_workers import arrow_schema, build_chunk
from kgdiff.export.dataset_schema import QA_SCHEMA
from tests.benchmark_exports import export, file_bytes

CONFIGS = ("qa", "temporal", "pools")


def _export(store: Path, out: Path, workers: int, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(splits, "CHUNK", 7)  # many chunks of every split
    return export(store, out, configs=CONFIGS, workers=workers).out


def test_workers_write_the_bytes_one_process_writes(
    export_sample_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alone = file_bytes(_export(export_sample_store, tmp_path / "one", 1, monkeypatch))
    shared = file_bytes(_export(export_sample_store, tmp_path / "three", 3, monkeypatch))
    assert alone == shared
    assert sum(name.endswith(".parquet") for name in alone) >= 5


def test_a_failing_record_fails_the_export_and_leaves_no_folder(
    export_sample_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_: object, **__: object) -> object:
        raise RuntimeError("a record builder broke")

    from kgdiff.export import temporal_config

    monkeypatch.setitem(temporal_config.BUILDERS, "timestamp", broken)
    with pytest.raises(RuntimeError, match="a record builder broke"):
        _export(export_sample_store, tmp_path / "broken", 2, monkeypatch)
    assert list(tmp_path.iterdir()) == []


def test_a_chunk_counts_what_it_leaves_out() -> None:
    schema = arrow_schema(QA_SCHEMA)
    table, tally = build_chunk([{"n": 1}, {"n": 2}], lambda row: "no_answer_text", schema, None)
    assert table.num_rows == 0 and tally == {"no_answer_text": 2}
