"""Merged items, subjects created after the cutoff, and mode 'both' (record vs valid time).

Every example is checked twice: against the independent reference and against the SQL.
"""

from __future__ import annotations

import dataclasses
from datetime import date

import duckdb
import pytest

from tests.temporal_reference import Entity, Result, Row, Snapshot
from tests.temporal_reference import classify as reference
from tests.temporal_strategies import day, snapshots_of, statement
from tests.test_classify import load, sql_results

S, P = "Q1", "P1"
A, B = "Q100", "Q101"
INIT, CUTOFF, CURRENT = date(2010, 6, 15), date(2015, 6, 15), date(2020, 6, 15)
D0, D1, D2 = date(2010, 1, 1), date(2015, 1, 1), date(2020, 1, 1)


def both_ways(snapshots: list[Snapshot], mode: str) -> dict[tuple[str, str], Result]:
    """The results of the reference, after checking that the SQL gives the same."""
    expected = reference(snapshots, INIT, CUTOFF, CURRENT, mode)
    connection = duckdb.connect()
    load(connection, snapshots)
    assert sql_results(connection, INIT, CUTOFF, CURRENT, mode) == expected
    return expected


def with_entities(snapshots: list[Snapshot], *extra: tuple[int, Entity]) -> list[Snapshot]:
    """Each snapshot with an entity row per subject, plus ``extra`` (position, entity) rows."""
    result = []
    for position, snap in enumerate(snapshots):
        rows = [Entity(q) for q in sorted({r.subject for r in snap.rows})]
        rows += [entity for at, entity in extra if at == position]
        result.append(dataclasses.replace(snap, entities=tuple(rows)))
    return result


def three(init: list[Row], cutoff: list[Row], current: list[Row]) -> list[Snapshot]:
    """Snapshots just before init, cutoff and current, with their entity rows."""
    return with_entities(snapshots_of((D0, init), (D1, cutoff), (D2, current)))


def test_a_merged_subject_is_followed_not_retracted() -> None:
    # Q1 is merged into Q2 after the cutoff: Q2 carries the same fact
    before = [statement(S, P, A)]
    after = [statement("Q2", P, A)]
    snaps = with_entities(
        snapshots_of((D0, before), (D1, before), (D2, after)), (2, Entity(S, "Q2"))
    )
    for mode in ("record", "valid", "both"):
        results = both_ways(snaps, mode)
        assert set(results) == {("Q2", P)}
        assert (results[("Q2", P)].level, results[("Q2", P)].latest) == ("stable", (A,))


def test_a_merged_value_is_not_a_replacement() -> None:
    # the object A was merged into B: the statement now points at B
    snaps = with_entities(
        snapshots_of(
            (D0, [statement(S, P, A)]), (D1, [statement(S, P, A)]), (D2, [statement(S, P, B)])
        ),
        (2, Entity(A, B)),
    )
    found = both_ways(snaps, "record")[(S, P)]
    assert (found.level, found.latest, found.all_answers) == ("stable", (B,), (B,))


def test_double_redirects_are_followed() -> None:
    q102 = "Q102"
    rows = snapshots_of(
        (D0, [statement(S, P, A)]), (D1, [statement(S, P, q102)]), (D2, [statement(S, P, q102)])
    )
    snaps = with_entities(rows, (1, Entity(A, B)), (2, Entity(B, q102)))
    found = both_ways(snaps, "record")[(S, P)]
    assert (found.level, found.latest) == ("stable", (q102,))


def test_the_latest_entity_row_decides_whether_an_item_is_merged() -> None:
    plain = [statement(S, P, A)]
    rows = snapshots_of((D0, plain), (D1, plain), (D2, plain))
    # merged in s1, and no row for A in s2: the redirect stands
    merged = with_entities(rows, (1, Entity(A, B)))
    assert both_ways(merged, "record")[(S, P)].all_answers == (B,)
    # merged in s1, an entity of its own again in s2: no redirect
    undone = with_entities(rows, (1, Entity(A, B)), (2, Entity(A)))
    assert both_ways(undone, "record")[(S, P)].all_answers == (A,)


def test_a_subject_created_after_the_cutoff_is_uncharted_in_valid_time() -> None:
    # not in the snapshot taken on the cutoff day, in the next one: created after the cutoff
    plain = [statement(S, P, A)]
    snaps = with_entities(snapshots_of((D0, []), (CUTOFF, []), (D2, plain)))
    for mode in ("record", "valid", "both"):
        found = both_ways(snaps, mode)[(S, P)]
        assert (found.level, found.latest) == ("uncharted", (A,)), mode
    assert both_ways(snaps, "valid")[(S, P)].valid_level == "uncharted"


def test_creation_only_bounds_statements_without_a_known_start() -> None:
    born = statement(S, "P569", "+1990-01-01T00:00:00Z/11", time=day(date(1990, 1, 1)))
    snaps = three([], [], [statement(S, P, A), born])
    # a known start of existence wins over the creation of the item
    assert both_ways(snaps, "valid")[(S, P)].level == "stable"
    assert both_ways(snaps, "record")[(S, P)].level == "uncharted"


def test_creation_between_snapshots_around_the_cutoff_is_ambiguous() -> None:
    # first seen in a snapshot after the cutoff whose predecessor is before init
    snaps = with_entities(snapshots_of((D0, []), (D2, [statement(S, P, A)])))
    found = both_ways(snaps, "valid")[(S, P)]
    assert (found.level, found.ambiguous_reason) == ("ambiguous", "unknown at init")


def test_a_backfilled_fact_makes_the_views_disagree() -> None:
    # valid since 2008 by its start qualifier, but recorded only after the cutoff
    late = statement(S, P, A, start=day(date(2008, 3, 1)))
    snaps = three([statement(S, "P2", B)], [statement(S, "P2", B)], [statement(S, "P2", B), late])
    found = both_ways(snaps, "both")[(S, P)]
    assert (found.record_level, found.valid_level, found.backfilled) == (
        "uncharted",
        "stable",
        True,
    )
    assert found.level == "ambiguous"
    assert found.ambiguous_reason == (
        "record and valid time disagree: record uncharted, valid stable"
    )
    steady = both_ways(snaps, "both")[(S, "P2")]
    assert (steady.level, steady.backfilled, steady.latest) == ("stable", False, (B,))
    assert (steady.record_level, steady.valid_level) == ("stable", "stable")


@pytest.mark.parametrize("mode", ["record", "valid", "both"])
def test_the_snapshots_read_are_reported(mode: str) -> None:
    plain = [statement(S, P, A)]
    found = both_ways(three(plain, plain, plain), mode)[(S, P)]
    expected = ("s2", "s2", "s2") if mode == "valid" else ("s0", "s1", "s2")
    assert (found.init_snapshot, found.cutoff_snapshot, found.current_snapshot) == expected
