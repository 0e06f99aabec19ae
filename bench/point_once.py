"""One store's point requests, timed by the kgdiff on ``PYTHONPATH`` (run by bench/point_bench.py
as a script, so that an older source tree's kgdiff runs it: it imports nothing of ``bench``).

    python bench/point_once.py STORE CUTOFF SUBJECTS ROUNDS

Makes the store's lookup copy and the facts copy of ``CUTOFF`` if they are missing; asks the
timeline of each of the :data:`LARGEST` entities with the most statements twice, first of all
(nothing of it remembered yet: ``largest_first``) and again (``largest_again``); draws
``SUBJECTS`` items of the latest snapshot (a fixed seed: the same ones for every kgdiff), asks
each of them once per round for its entity, its timeline and its facts at the cutoff through
the Python API, and prints one JSON line: the CPU milliseconds of one request of each kind (the
fastest round's mean; the largest entities' mean), the copy's layout (8 on: a schema per
subject range; 9: the timelines' value labels kept beside them) and the seconds the copies
took to make (0 when they were there).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

import duckdb

import kgdiff
from kgdiff.query import lookup


def latest_ids(store: Path, tail: str) -> list[str]:
    """The ids of the latest snapshot's entities that the SQL ``tail`` (after their FROM)
    picks, in its order."""
    latest = sorted(store.glob("snapshots/*/entities"))[-1]
    query = f"SELECT qid FROM read_parquet('{latest}/*.parquet') {tail}"
    with duckdb.connect() as connection:
        return [str(row[0]) for row in connection.execute(query).fetchall()]


def drawn(store: Path, count: int) -> list[str]:
    """``count`` item ids of the latest snapshot, drawn with a fixed seed."""
    tail = f"WHERE qid LIKE 'Q%' USING SAMPLE {count} ROWS (reservoir, 11)"
    return sorted(latest_ids(store, tail))


LARGEST = 15
"""Entities with the most statements whose timelines are asked (the tail of a load)."""


def largest(store: Path, count: int) -> list[str]:
    """The ``count`` entities of the latest snapshot with the most statements."""
    return latest_ids(store, f"ORDER BY n_statements DESC, qid LIMIT {count}")


def mean_cpu_ms(ask: Callable[[str], object], subjects: list[str]) -> float:
    """CPU milliseconds of one request, the mean of asking each subject once."""
    started = time.process_time()
    for qid in subjects:
        ask(qid)
    return round((time.process_time() - started) / len(subjects) * 1000, 2)


def cpu_ms(ask: Callable[[str], object], subjects: list[str], rounds: int) -> float:
    """CPU milliseconds of one request: the fastest round's mean, after a warm-up."""
    for qid in subjects[:4]:
        ask(qid)
    means = []
    for _ in range(rounds):
        started = time.process_time()
        for qid in subjects:
            ask(qid)
        means.append((time.process_time() - started) / len(subjects) * 1000)
    return round(min(means), 2)


def main() -> None:
    store, cutoff = Path(sys.argv[1]), sys.argv[2]
    count, rounds = int(sys.argv[3]), int(sys.argv[4])
    kg = kgdiff.open(store)
    started = time.monotonic()
    kg.build_facts(cutoff)  # the lookup copy first, when missing
    built = time.monotonic() - started
    tail = largest(store, LARGEST)
    first = mean_cpu_ms(kg.timeline, tail)
    again = mean_cpu_ms(kg.timeline, tail)
    subjects = drawn(store, count)
    asks: dict[str, Callable[[str], object]] = {
        "entity": lambda qid: kg.entity(qid),
        "timeline": lambda qid: kg.timeline(qid),
        "facts": lambda qid: kg.facts_at(cutoff, subject=qid),
    }
    result: dict[str, object] = {"layout": lookup.COPY_LAYOUT, "copies_made_s": round(built, 1)}
    result |= {kind: cpu_ms(ask, subjects, rounds) for kind, ask in asks.items()}
    result |= {"largest_first": first, "largest_again": again}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
