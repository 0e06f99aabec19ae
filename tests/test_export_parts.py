"""A config whose records are built a part of a split at a time (their words, subjects' names,
evidence and dates read for the part's rows alone) makes the records the whole split makes in
one part, byte for byte, and leaves nothing of what it named on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgdiff.export.core.leftovers import spill_prefix, staging_folder
from kgdiff.export.dataset import frame_chunks
from tests.benchmark_exports import SAMPLES_WINDOW, export, file_bytes, records
from tests.faultkit import dead_pid

SMALL_BATCH = 48
"""Rows a batch holds here: the samples' splits hold ~150 to ~900 catalogued groups, so
that a part of one batch cuts each into several."""


def _exported(store: Path, out: Path, part_batches: int, **fields: object) -> dict[str, bytes]:
    out.parent.mkdir()
    killed = dead_pid()  # what an export that was killed left: the next one removes it
    (out.parent / f"{spill_prefix(killed)}abc").mkdir()
    staging_folder(out, killed).mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(frame_chunks, "BATCH", SMALL_BATCH)
        patch.setattr(frame_chunks, "PART_BATCHES", part_batches)
        export(store, out, configs=("qa",), **SAMPLES_WINDOW, **fields)
    leftovers = sorted(path.name for path in out.parent.iterdir() if path != out)
    assert leftovers == [], f"left on disk beside the export: {leftovers}"
    return file_bytes(out)


def test_qa_by_parts_is_qa_in_one_part(export_demo_store: Path, tmp_path: Path) -> None:
    whole = _exported(export_demo_store, tmp_path / "whole" / "bench", part_batches=10**6)
    parts = _exported(export_demo_store, tmp_path / "parts" / "bench", part_batches=1)
    assert sorted(parts) == sorted(whole)
    stable = records(tmp_path / "whole" / "bench", "stable")
    assert len(stable) > 3 * SMALL_BATCH, "the stable split spans several parts"
    for name in whole:
        assert parts[name] == whole[name], f"{name} differs when built a part at a time"


def test_a_limited_split_by_parts_is_the_same(export_demo_store: Path, tmp_path: Path) -> None:
    found = []
    for chunk in (3, 50_000):
        out = tmp_path / f"chunk-{chunk}" / "bench"
        out.parent.mkdir()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(frame_chunks, "CHUNK", chunk)
            export(export_demo_store, out, configs=("qa",), limit=7, **SAMPLES_WINDOW)
        found.append([records(out, split) for split in ("stable", "evolved", "uncharted")])
    assert found[0] == found[1]
    assert sum(len(split) for split in found[0]) > 7, "every split keeps up to 7 records"
