"""Benchmark exports that several test files make with the same arguments from the same store,
made once per run (:func:`tests.built_once.built_once`) instead of once per file.

An export of a store is the same whichever copy of the store it is made from and whichever
folder it is written to (the folders are byte for byte the same, the
:class:`~kgdiff.export.benchmark.BenchmarkExport` equal but for ``out``): the first process
that asks exports a private copy of the pristine store, keeps the folder and what the export
returned, and every test file then reads a private copy of that folder (tests write into a
benchmark folder: caches, ``__pycache__`` of its task files).
"""

from __future__ import annotations

import hashlib
import pickle
import shutil
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from kgdiff.export.benchmark import CONFIGS, BenchmarkExport
from tests.benchmark_exports import export
from tests.built_once import built_once, private_copy

DEMO_EVERY_CONFIG: dict[str, Any] = {"configs": tuple(CONFIGS), "pools_static": "all"}
"""The demo store's export at its default dates, every config and every static pool
(tests/test_benchmark_hygiene.py, tests/test_benchmark_wording.py, tests/test_task_metrics.py)."""
SAMPLES_POOLS_ALL: dict[str, Any] = {
    "configs": ("pools",),
    "mode": "valid",
    "init": date(2010, 1, 1),
    "pools_static": "all",
}
"""The samples' ``pools`` of 2010–2014 in valid time, every static group
(tests/test_benchmark_pools.py, tests/test_benchmark_pools_static.py)."""


def shared_export(
    factory: pytest.TempPathFactory, pristine: Path, **fields: Any
) -> BenchmarkExport:
    """``export(store, out, **fields)`` of a store that is a copy of ``pristine`` (a folder
    :func:`built_once` made, never written to), made once per run: this test file's own copy
    of the folder, and what the export returned with ``out`` naming that copy."""
    key = hashlib.sha256(repr((pristine.name, sorted(fields.items()))).encode()).hexdigest()
    name = f"shared-export-{key[:16]}"

    def build(folder: Path) -> None:
        store = private_copy(pristine, folder / "store")
        done = export(store, folder / "bench", **fields)
        shutil.rmtree(store)  # its classifications: nobody reads them
        (folder / "export.pickle").write_bytes(pickle.dumps(replace(done, out=Path("bench"))))

    folder = built_once(factory, name, build)
    done: BenchmarkExport = pickle.loads((folder / "export.pickle").read_bytes())
    return replace(done, out=private_copy(folder / "bench", factory.mktemp(name) / "bench"))
