"""A config whose records are built a part of a split at a time (their words, subjects' names,
evidence and dates read for the part's rows alone: ``qa``'s groups, ``multi_hop``'s chains)
makes the records the whole split makes in one part, byte for byte, and leaves nothing of what
it named on disk."""

from __future__ import annotations

from pathlib import Path

import pytest

from kgdiff.export.core.leftovers import spill_prefix, staging_folder
from kgdiff.export.dataset import frame_chunks
from kgdiff.export.multi_hop import config as multi_hop_config
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


PART_CHAINS = 25
"""Chains a part holds here: the samples' ~80 chains in four parts. (Each part reads its
setting, ~1.5 s on the samples: parts of 7 chains took 45 s an export, of 25 chains 15 s.)"""


@pytest.mark.parametrize("limit", [None, 9])
def test_multi_hop_by_parts_is_multi_hop_in_one_part(
    export_sample_store: Path, tmp_path: Path, limit: int | None
) -> None:
    found = []
    for size in (PART_CHAINS, 10**6):
        out = tmp_path / f"part-{size}" / "bench"
        out.parent.mkdir()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(multi_hop_config, "PART_CHAINS", size)
            patch.setattr(frame_chunks, "CHUNK", 5)  # row groups of 5 records, whatever the parts
            export(export_sample_store, out, configs=("multi_hop",), limit=limit)
        found.append(file_bytes(out))
    chains = records(out, "hops_2", "multi_hop") + records(out, "hops_3", "multi_hop")
    assert len(chains) > (2 * 9 - 1 if limit else 70), "each split spans several parts"
    for split in ("hops_2", "hops_3"):
        ids = [chain["id"] for chain in records(out, split, "multi_hop")]
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
    assert sorted(found[0]) == sorted(found[1])
    for name in found[1]:
        assert found[0][name] == found[1][name], f"{name} differs when built a part at a time"
