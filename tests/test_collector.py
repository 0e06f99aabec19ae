"""The cyclic collector's thresholds during bulk work (kgdiff/collector.py): raised while the
export and the audit run, put back after, shared by work running in several threads."""

from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest

import kgdiff
from kgdiff.cli import collector_for
from kgdiff.collector import BULK_THRESHOLDS, bulk_allocations
from kgdiff.export.audit.run import audit_export
from kgdiff.export.benchmark import export_benchmark
from kgdiff.export.core.benchmark_model import BenchmarkRequest
from tests.benchmark_exports import CUTOFF, SAMPLES_WINDOW

T = TypeVar("T")

OWN = (900, 7, 9)
"""Thresholds of the process's own, neither Python's defaults nor the bulk ones."""


@pytest.fixture
def own_thresholds() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(*OWN)
    try:
        yield
    finally:
        gc.set_threshold(*before)


@pytest.mark.usefixtures("own_thresholds")
def test_raised_inside_and_put_back_after_even_on_an_error() -> None:
    with bulk_allocations():
        assert gc.get_threshold() == BULK_THRESHOLDS
        with bulk_allocations():
            assert gc.get_threshold() == BULK_THRESHOLDS
        assert gc.get_threshold() == BULK_THRESHOLDS
    assert gc.get_threshold() == OWN
    with pytest.raises(RuntimeError), bulk_allocations():
        raise RuntimeError("the work failed")
    assert gc.get_threshold() == OWN


@pytest.mark.usefixtures("own_thresholds")
def test_work_in_two_threads_shares_one_raise_until_the_last_ends() -> None:
    entered, release_first, first_done = threading.Event(), threading.Event(), threading.Event()
    seen: list[tuple[int, int, int]] = []

    def first() -> None:
        with bulk_allocations():
            entered.set()
            release_first.wait(10)
        first_done.set()

    thread = threading.Thread(target=first)
    thread.start()
    assert entered.wait(10)
    with bulk_allocations():
        release_first.set()
        assert first_done.wait(10)
        seen.append(gc.get_threshold())  # the first thread ended: the raise stays
    thread.join(10)
    assert seen == [BULK_THRESHOLDS]
    assert gc.get_threshold() == OWN


@pytest.mark.usefixtures("own_thresholds")
@pytest.mark.parametrize(
    ("args", "inside"),
    [
        (["ingest", "rdf", "dump.nt"], BULK_THRESHOLDS),
        (["export", "benchmark"], BULK_THRESHOLDS),
        (["serve", "--port", "8000"], OWN),
    ],
)
def test_every_command_but_the_service_runs_with_the_raised_thresholds(
    args: list[str], inside: tuple[int, int, int]
) -> None:
    with collector_for(args):
        assert gc.get_threshold() == inside
    assert gc.get_threshold() == OWN


def _at_collections(work: Callable[[], object], seen_as: Callable[[dict[str, int]], T]) -> list[T]:
    """What ``seen_as`` makes of the start of each collection while ``work`` runs (given
    the collector's information on it)."""
    seen: list[T] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(seen_as(info))

    gc.callbacks.append(note)
    try:
        work()
    finally:
        gc.callbacks.remove(note)
    return seen


def _thresholds_at_collections(work: Callable[[], object]) -> list[tuple[int, int, int]]:
    """The collector's thresholds at the start of each collection while ``work`` runs."""
    return _at_collections(work, lambda _info: gc.get_threshold())


@pytest.mark.usefixtures("own_thresholds")
def test_the_export_and_its_audit_run_with_the_raised_thresholds(
    export_sample_store: Path, tmp_path: Path
) -> None:
    request = BenchmarkRequest(**{"cutoff": CUTOFF, **SAMPLES_WINDOW, "limit": 5})
    kg = kgdiff.open(export_sample_store)
    out = tmp_path / "bench"
    steps: list[tuple[int, int, int]] = []
    exported = _thresholds_at_collections(
        lambda: export_benchmark(
            kg, request, out, on_step=lambda _: steps.append(gc.get_threshold())
        )
    )
    # the first step is said before the work starts; every one after runs inside it
    assert steps[0] == OWN and len(steps) > 1
    assert set(steps[1:]) == {BULK_THRESHOLDS}
    assert BULK_THRESHOLDS in exported  # at least the collection at its end
    assert gc.get_threshold() == OWN

    audited = _thresholds_at_collections(lambda: audit_export(out, kg))
    assert audited and set(audited) == {BULK_THRESHOLDS}
    assert gc.get_threshold() == OWN


class _Node:
    """An object that can be part of a cycle and be watched through a weak reference."""

    def __init__(self) -> None:
        self.other: object = None


def _generations_collected(work: Callable[[], object]) -> list[int]:
    """The generations of the collections that ran while ``work`` ran."""
    return _at_collections(work, lambda info: info["generation"])


def _cycle_in_bulk(promote: bool) -> weakref.ref[_Node]:
    """Make a cycle inside a bulk block (and, with ``promote``, move it to the oldest
    generation before dropping it), return a weak reference to one of its objects."""
    with bulk_allocations():
        first, second = _Node(), _Node()
        first.other, second.other = second, first
        if promote:
            gc.collect(1)  # as a long export's collections of the middle generation do
        watched = weakref.ref(first)
        del first, second
    return watched


@pytest.mark.usefixtures("own_thresholds")
def test_the_end_collects_the_young_generations_when_nothing_reached_the_oldest() -> None:
    watched: list[weakref.ref[_Node]] = []
    generations = _generations_collected(lambda: watched.append(_cycle_in_bulk(promote=False)))
    assert generations[-1] == 1 and 2 not in generations
    assert watched[0]() is None  # the cycle made in the block is freed


@pytest.mark.usefixtures("own_thresholds")
def test_the_end_collects_everything_when_the_work_reached_the_oldest() -> None:
    watched: list[weakref.ref[_Node]] = []
    generations = _generations_collected(lambda: watched.append(_cycle_in_bulk(promote=True)))
    assert generations[-1] == 2
    assert watched[0]() is None
