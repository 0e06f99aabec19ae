"""The rules of the pools config, by property: which years are asked, a group's state over
them, and a year's earlier and later objects (docs/benchmark-export.md#the-pools-config)."""

from __future__ import annotations

from datetime import date, timedelta

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.export.core.benchmark_model import Dates
from kgdiff.export.pools.groups import YEAR_SCHEMA, asked_years, pool_years, reasons, states
from kgdiff.export.pools.records import other_years

POOL = st.lists(st.sampled_from("abcdef"), max_size=3, unique=True).map(sorted)


@settings(max_examples=300)
@given(st.lists(POOL, min_size=1, max_size=8), st.data())
def test_other_years_are_the_objects_of_other_years_nearest_first(
    pools: list[list[str]], data: st.DataObject
) -> None:
    index = data.draw(st.integers(0, len(pools) - 1))
    earlier, later = other_years(pools, index)
    here = set(pools[index])
    for found, years in (
        (earlier, range(index - 1, -1, -1)),
        (later, range(index + 1, len(pools))),
    ):
        nearest: dict[str, int] = {}
        for year in years:
            for value in pools[year]:
                nearest.setdefault(value, abs(year - index))
        assert set(found) == set(nearest) - here
        assert len(found) == len(set(found))
        assert [nearest[value] for value in found] == sorted(nearest[value] for value in found)


DAY = st.dates(date(1990, 1, 1), date(2030, 12, 31))


@given(DAY, st.integers(1, 4000), st.integers(1, 4000), DAY)
def test_the_years_run_from_init_to_current_and_stop_at_the_latest_snapshot(
    init: date, to_cutoff: int, to_current: int, latest: date
) -> None:
    cutoff = init + timedelta(days=to_cutoff)
    dates = Dates(init, cutoff, cutoff + timedelta(days=to_current))
    years = pool_years(dates, latest)
    assert years.last == min(dates.current.year, latest.year)
    assert years.first == min(init.year, years.last) <= years.last
    assert years.after_the_data == tuple(range(years.last + 1, dates.current.year + 1))


@st.composite
def group_years(draw: st.DrawFn) -> pl.DataFrame:
    """Years of a few groups, as read_pool_years gives them (empty and filled marked)."""
    rows: list[tuple[object, ...]] = []
    for group in range(draw(st.integers(1, 4))):
        for year in range(2010, 2010 + draw(st.integers(1, 5))):
            objects = draw(POOL)
            filled = bool(objects) and draw(st.booleans())
            reason = "filled_year" if filled else None if objects else "empty_year"
            gid = f"pools/Q{group}/P39"
            rows.append((gid, f"Q{group}", "P39", "s", year, objects, [], reason))
    return pl.DataFrame(rows, schema=YEAR_SCHEMA, orient="row")


@settings(max_examples=200)
@given(group_years())
def test_only_years_with_a_pool_of_their_own_are_asked_and_state_is_over_them(
    years: pl.DataFrame,
) -> None:
    asked = asked_years(years)
    assert asked.height + sum(reasons(years).values()) == years.height
    assert all(asked.get_column("objects").list.len() > 0)
    for (gid,), group in asked.group_by("group_id"):
        pools = {tuple(objects) for objects in group.get_column("objects")}
        wanted = "dynamic" if len(pools) > 1 else "static"
        assert set(group.get_column("state")) == {wanted}, gid
    assert sum(states(asked).values()) == asked.get_column("group_id").n_unique()
