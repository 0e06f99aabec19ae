"""What an export reads of the store for its distractors
(kgdiff/export/distractors/store_facts.py, subject_truths.py): the subjects' truths, written
to disk sorted by subject and read a range of subjects at a time, are those of the store's
item statements joined in memory, for any batch of requests; the typical roles DuckDB
aggregates are those of their definition, computed here in polars from the store's rows; the
distractors' pool holds every (relation, answer) of the groups once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

import kgdiff
from kgdiff.export.core.leftovers import SpillFolder
from kgdiff.export.distractors.human_roles import ROLE_PIDS, SEX_PID, TYPICAL_FLOOR
from kgdiff.export.distractors.store_facts import StoreFacts
from kgdiff.export.distractors.subject_truths import blocked_values, kin_groups
from kgdiff.export.inputs.shared_naming import answer_pairs
from kgdiff.export.relations.catalogue import shipped_catalogue
from tests.role_keys import keys_by_row


def read_subject_values(connection: duckdb.DuckDBPyConnection, pids: list[str]) -> pl.DataFrame:
    """Every (``subject``, ``pid``, ``value``) of the store's item statements of ``pids`` that
    are not deprecated, in any snapshot: the rows the facts are worked out from."""
    query = (
        "SELECT DISTINCT subject, pid, object_qid AS value FROM statements"
        " WHERE pid IN (SELECT unnest(CAST($pids AS VARCHAR[])))"
        " AND object_qid IS NOT NULL AND rank <> 'deprecated'"
    )
    found = pl.from_arrow(connection.sql(query, params={"pids": pids}).to_arrow_table())
    assert isinstance(found, pl.DataFrame)
    return found


@pytest.fixture(scope="module")
def read_facts(export_demo_store: Path) -> Iterator[tuple[StoreFacts, pl.DataFrame]]:
    """The demo store's facts as an export reads them, and every item its subjects hold
    under the catalogue's item relations and the role relations (read apart)."""
    kg = kgdiff.open(export_demo_store)
    catalogue = shipped_catalogue()
    folder = SpillFolder()
    pids = sorted({*kin_groups(catalogue).get_column("pid"), *ROLE_PIDS})
    try:
        with kg.connection() as connection:
            facts = StoreFacts.read(connection, catalogue, folder.path)
            values = read_subject_values(connection, pids)
        yield facts, values
    finally:
        folder.close()
    assert not folder.path.exists()


def _expected_typical(values: pl.DataFrame, pids: list[str]) -> pl.DataFrame:
    """The roles held by at least half of a relation's objects that hold one (at least
    TYPICAL_FLOOR of them), from the rows themselves."""
    objects = values.filter(pl.col("pid").is_in(pids)).select("pid", "value").unique()
    jobs = values.filter(pl.col("pid").is_in(ROLE_PIDS) & (pl.col("pid") != SEX_PID))
    jobs = jobs.select(pl.col("subject").alias("value"), pl.col("value").alias("role")).unique()
    rows = objects.join(jobs, on="value").rows()
    people: dict[str, set[str]] = {}
    holders: dict[tuple[str, str], int] = {}
    for pid, value, role in rows:
        people.setdefault(pid, set()).add(value)
        holders[pid, role] = holders.get((pid, role), 0) + 1
    found = [
        (pid, role, k / len(people[pid]))
        for (pid, role), k in holders.items()
        if 2 * k >= len(people[pid]) and len(people[pid]) >= TYPICAL_FLOOR
    ]
    schema = {"pid": pl.String(), "role": pl.String(), "share": pl.Float64()}
    return pl.DataFrame(found, schema=schema, orient="row").sort("pid", "role")


def test_typical_roles_are_those_of_their_definition(
    read_facts: tuple[StoreFacts, pl.DataFrame],
) -> None:
    facts, values = read_facts
    pids = kin_groups(shipped_catalogue()).get_column("pid").to_list()
    expected = _expected_typical(values, pids)
    assert expected.height  # the demo's relations of people have typical roles
    assert facts.typical.equals(expected)


def test_the_truths_file_is_sorted_by_subject(
    read_facts: tuple[StoreFacts, pl.DataFrame],
) -> None:
    path = read_facts[0].truths.path
    assert path is not None
    subjects = pl.read_parquet(path, columns=["subject"]).get_column("subject")
    assert subjects.len() > 1000
    assert subjects.is_sorted()


def _joined(requests: pl.DataFrame, values: pl.DataFrame) -> set[tuple[int, str]]:
    """What each request's subject holds under a relation of the kind of its pid, joined in
    memory from every row of the store."""
    kins = kin_groups(shipped_catalogue())
    held = values.join(kins, on="pid").select("subject", "kin", "value").unique()
    asked = requests.join(kins, on="pid").select("_id", "subject", "kin")
    found = asked.join(held, on=["subject", "kin"]).select("_id", "value")
    return set(found.iter_rows())


@given(data=st.data())
def test_truths_read_by_subject_range_are_those_joined_in_memory(
    read_facts: tuple[StoreFacts, pl.DataFrame], data: st.DataObject
) -> None:
    facts, values = read_facts
    subjects = values.get_column("subject").unique().sort().to_list()
    pids = sorted({*values.get_column("pid").unique().to_list(), "P0"})
    start = data.draw(st.integers(0, len(subjects) - 1))
    width = data.draw(st.integers(1, 400))
    near = subjects[start : start + width]  # a narrow range, as a batch of records asks
    chosen = data.draw(st.lists(st.sampled_from([*near, "Q0"]), min_size=1, max_size=60))
    relations = data.draw(
        st.lists(st.sampled_from(pids), min_size=len(chosen), max_size=len(chosen))
    )
    requests = pl.DataFrame(
        {"_id": range(len(chosen)), "subject": chosen, "pid": relations},
        schema={"_id": pl.UInt32(), "subject": pl.String(), "pid": pl.String()},
    )
    held = facts.truths.held(requests)
    assert set(held.iter_rows()) == _joined(requests, values)
    assert held.schema == pl.Schema({"_id": pl.UInt32(), "value": pl.String()})


def test_blocked_values_hold_the_excluded_and_the_subjects_truths(
    read_facts: tuple[StoreFacts, pl.DataFrame],
) -> None:
    facts, values = read_facts
    row = values.join(kin_groups(shipped_catalogue()), on="pid").row(0, named=True)
    requests = pl.DataFrame(
        {"_id": [0, 1], "subject": [row["subject"], None], "pid": [row["pid"], row["pid"]],
         "exclude": [["Q1"], ["Q2"]]},
        schema={"_id": pl.UInt32(), "subject": pl.String(), "pid": pl.String(),
                "exclude": pl.List(pl.String())},
    )  # fmt: skip
    blocked = set(blocked_values(requests, facts.truths).iter_rows())
    assert {(0, "Q1"), (1, "Q2"), (0, row["value"])} <= blocked
    assert {value for key, value in blocked if key == 1} == {"Q2"}


_IDS = st.sampled_from(["Q1", "Q2", "Q3", "Q10", "Q11", "2001-01-01|11|gregorian", "42|Q11573"])


@given(
    rows=st.lists(
        st.tuples(
            st.sampled_from(["P17", "P27", "P569", None]),
            st.lists(st.one_of(st.none(), _IDS), max_size=5),
        ),
        max_size=30,
    )
)
def test_the_answer_pairs_are_every_pid_and_answer_once(
    rows: list[tuple[str | None, list[str | None]]],
) -> None:
    groups = pl.DataFrame(
        rows, schema={"pid": pl.String(), "all_answers": pl.List(pl.String())}, orient="row"
    )
    pairs = answer_pairs(groups)
    expected = {(pid, value) for pid, values in rows if pid for value in values if value}
    assert set(pairs.iter_rows()) == expected
    assert pairs.height == len(expected) and pairs.equals(pairs.sort("pid", "value"))
    assert pairs.schema == pl.Schema({"pid": pl.String(), "value": pl.String()})


def test_the_role_keys_file_holds_those_of_the_peoples_rows(
    read_facts: tuple[StoreFacts, pl.DataFrame],
) -> None:
    facts, values = read_facts
    # the rows read are not deprecated: keys_by_row keeps every one
    roles = values.filter(pl.col("pid").is_in(ROLE_PIDS)).rows()
    written = facts.role_keys.collect()
    assert written.height > 100 and written.get_column("value").is_sorted()
    assert written.equals(keys_by_row([(*row, "normal") for row in roles]))
