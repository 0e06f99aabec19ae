"""What a killed export leaves beside its folder (its staging folder, the folder it was
replacing, what it named) is removed by the next export beside it; what a running export
holds, another folder's staging and the only copy of a replaced dataset are not
(kgdiff/export/core/leftovers.py)."""

from __future__ import annotations

import os
from pathlib import Path

from kgdiff.export.core.leftovers import (
    SPILL_PREFIX,
    replaced_folder,
    spill_prefix,
    staging_folder,
    sweep_leftovers,
)
from tests.faultkit import dead_pid


def _made(path: Path) -> Path:
    path.mkdir()
    (path / "part-0.parquet").write_bytes(b"PAR1")
    return path


def test_a_killed_exports_folders_go_and_a_running_ones_stay(tmp_path: Path) -> None:
    out, dead, alive = tmp_path / "bench", dead_pid(), os.getpid()
    gone = [
        _made(staging_folder(out, dead)),
        _made(tmp_path / f"{spill_prefix(dead)}abc123"),
    ]
    kept = [
        _made(staging_folder(out, alive)),
        _made(tmp_path / f"{spill_prefix(alive)}def456"),
        _made(staging_folder(tmp_path / "other", dead)),  # another folder's: not ours to judge
        _made(tmp_path / f"{SPILL_PREFIX}xyz"),  # no pid in its name
        _made(replaced_folder(out, dead)),  # no ``bench``: it may be the only copy
    ]
    assert sweep_leftovers(out) == sorted(gone)
    assert [path.exists() for path in gone + kept] == [False] * 2 + [True] * 5
    out.mkdir()
    assert sweep_leftovers(out) == [replaced_folder(out, dead)]


def test_nothing_to_sweep_where_the_folder_has_no_parent_yet(tmp_path: Path) -> None:
    assert sweep_leftovers(tmp_path / "missing" / "bench") == []
