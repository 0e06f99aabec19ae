"""Folders the suite builds once per run, however many pytest-xdist workers ask for them.

Each worker of ``pytest -n N`` is a process of its own with its own session fixtures: a store
ingested by a session fixture was ingested N times, each time competing with the others for
the same cores. Here the first process that asks builds the folder under a file lock in the
run's shared temporary folder; the others wait for it, then every test session works on a
private copy (the tests write classifications, lookups and broken files into their stores).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock


def run_folder(factory: pytest.TempPathFactory) -> Path:
    """The temporary folder every process of this run shares: the session's own, or under
    xdist its parent (each worker's base folder, ``popen-gwN``, is a child of it)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]) -> Path:
    """The folder ``name`` as ``build`` makes it (given a path that does not exist yet), made
    by the first process of the run that asks. Nobody writes into it afterwards: copy it."""
    shared = run_folder(factory) / "built-once"
    shared.mkdir(exist_ok=True)
    folder = shared / name
    with FileLock(shared / f"{name}.lock"):
        if not folder.is_dir():
            partial = shared / f"{name}.partial"
            shutil.rmtree(partial, ignore_errors=True)  # a build that failed before
            build(partial)
            partial.rename(folder)
    return folder


def private_copy(source: Path, target: Path) -> Path:
    """A copy of the folder ``source`` at ``target`` (which may exist, empty)."""
    shutil.copytree(source, target, dirs_exist_ok=True)
    return target
