"""Knowledge updates read from a build of the valid-time classification they rest on
(kgdiff.temporal.updates.updates_of_build): built by the first question, reused by the next,
the same rows as classifying again, on the real samples."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import duckdb
import pytest

from kgdiff.query.graph import KnowledgeGraph
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.builds import classification
from kgdiff.temporal.parts import EVERY_GROUP
from kgdiff.temporal.updates import UpdatesQuery, updates_in_parts, updates_of_build
from tests.built_once import private_copy

CUTOFF, CURRENT = date(2005, 6, 1), date(2014, 12, 31)


@pytest.fixture
def store(pristine_samples: Path, tmp_path: Path) -> Path:
    """A private copy of the real samples' store (the updates write a build into it)."""
    return private_copy(pristine_samples, tmp_path / "store")


def valid_builds(store: Path) -> list[dict[str, object]]:
    """The params of the store's valid-time classification builds."""
    found = [json.loads(p.read_text()) for p in store.glob("builds/classify/*/params.json")]
    return [params for params in found if params["mode"] == "valid"]


def classified_again(store: Path) -> list[dict[str, object]]:
    """The updates found by classifying the store (the catalog's ``classify`` macro)."""
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        rows = updates_in_parts(connection, UpdatesQuery(CUTOFF, CURRENT), [EVERY_GROUP])
    found: list[dict[str, object]] = rows.to_pylist()
    return found


def test_the_first_question_builds_the_classification_and_the_next_reads_it(store: Path) -> None:
    kg = KnowledgeGraph.open(store)
    first = kg.updates(CUTOFF, CURRENT)
    (params,) = valid_builds(store)
    assert (params["init"], params["cutoff"]) == ("2005-05-31", "2005-06-01")
    assert params["current"] == "2014-12-31"
    files = sorted(store.glob("builds/classify/*/result/*.parquet"))
    stamps = [path.stat().st_mtime_ns for path in files]
    again = kg.updates(CUTOFF, CURRENT)
    assert [path.stat().st_mtime_ns for path in files] == stamps  # reused, not made again
    assert first.equals(again)
    expected = classified_again(store)
    assert first.to_dicts() == expected and len(expected) > 10


def test_a_store_that_cannot_keep_a_build_classifies_again(store: Path) -> None:
    """Where the build cannot be written (here ``builds`` is a file), the updates are those
    of classifying part by part, and nothing is left behind."""
    (store / "builds").write_text("not a folder\n")
    found = KnowledgeGraph.open(store).updates(CUTOFF, CURRENT)
    assert found.to_dicts() == classified_again(store)
    assert (store / "builds").read_text() == "not a folder\n"


def test_the_builds_classify_answers_only_its_own_dates(store: Path) -> None:
    """The connection's ``classify`` stands for the build alone: a question of other dates
    is an error, not that build's rows; afterwards it is the catalog's again."""
    build = classification(StoreLayout(store), date(2005, 5, 31), CUTOFF, CURRENT, "valid")
    later = UpdatesQuery(date(2006, 6, 1), CURRENT)
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        with pytest.raises(duckdb.Error, match="answers only from the build of 2005-05-31"):
            updates_of_build(connection, later, build)
        own = updates_of_build(connection, UpdatesQuery(CUTOFF, CURRENT), build)
        catalog = updates_in_parts(connection, later, [EVERY_GROUP])
    assert own.to_pylist() == classified_again(store)
    assert catalog.num_rows > 0 and catalog.to_pylist() != own.to_pylist()
