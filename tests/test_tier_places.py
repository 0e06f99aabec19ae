"""The distractor tiers' rows found by position (kgdiff/export/distractors/tier_places.py) are
those the joins they replace found: the candidate at each place drawn with its words, and the
candidates whose aliases read as a taken form, over tiers of any sizes, candidates numbered
with gaps (a cap leaves some out) and some without words."""

from __future__ import annotations

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from kgdiff.export.distractors.tier_places import (
    alias_clashes,
    drawn_candidates,
    sorted_aliases,
    tier_starts,
)

FORMS = st.sampled_from(["Paris", "paris", "Lyon", "Nice", "", "Saint-Étienne", "Zürich"])


@st.composite
def tiers(draw: st.DrawFn) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """sizes (tier, n), members (tier, index, cand) and candidates (sorted, with gaps)."""
    numbers = sorted(draw(st.sets(st.integers(0, 60), min_size=1, max_size=25)))
    worded = [n for n in numbers if draw(st.booleans()) or n == numbers[0]]
    counts = draw(st.lists(st.integers(1, 6), min_size=1, max_size=8))
    members = [
        (tier, index, draw(st.sampled_from(numbers)))
        for tier, n in enumerate(counts)
        for index in range(n)
    ]
    sizes = pl.DataFrame(
        {"tier": range(len(counts)), "n": counts}, schema={"tier": pl.UInt32, "n": pl.UInt32}
    )
    member_frame = pl.DataFrame(
        members, schema={"tier": pl.UInt32, "index": pl.UInt32, "cand": pl.UInt32}, orient="row"
    )
    candidates = pl.DataFrame(
        {
            "cand": worded,
            "value": [f"Q{n}" for n in worded],
            "text": [f"text {n}" for n in worded],
            "form": [f"form {n}" for n in worded],
            "phrase": [f"the {n}" for n in worded],
        },
        schema_overrides={"cand": pl.UInt32},
    )
    return sizes, member_frame, candidates


@given(tiers(), st.data())
def test_places_find_what_the_joins_found(
    drawn_tiers: tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame], data: st.DataObject
) -> None:
    sizes, members, candidates = drawn_tiers
    counts = sizes.get_column("n").to_list()
    places = data.draw(
        st.lists(
            st.integers(0, len(counts) - 1).flatmap(
                lambda t: st.tuples(st.just(t), st.integers(0, counts[t] - 1))
            ),
            max_size=30,
        )
    )
    drawn = pl.DataFrame(
        [(f"r{i % 4}", t, index, i) for i, (t, index) in enumerate(places)],
        schema={"_id": pl.String, "tier": pl.UInt32, "index": pl.UInt32, "order": pl.UInt64},
        orient="row",
    )
    joined = drawn.join(members, on=["tier", "index"]).join(candidates, on="cand")
    found = drawn_candidates(drawn, tier_starts(sizes), members, candidates)
    assert found.sort("order").to_dicts() == joined.select(found.columns).sort("order").to_dicts()


@given(
    st.lists(st.tuples(st.integers(0, 9), FORMS), max_size=20),
    st.lists(st.tuples(st.sampled_from(["r1", "r2", "r3"]), FORMS | st.none()), max_size=12),
)
def test_clashes_are_the_candidates_whose_aliases_were_taken(
    aliases: list[tuple[int, str]], taken: list[tuple[str, str | None]]
) -> None:
    alias_frame = pl.DataFrame(aliases, schema={"cand": pl.UInt32, "form": pl.String}, orient="row")
    taken_frame = pl.DataFrame(taken, schema={"_id": pl.String, "form": pl.String}, orient="row")
    joined = taken_frame.join(alias_frame, on="form").select("_id", "cand").unique()
    found = alias_clashes(taken_frame, sorted_aliases(alias_frame))
    assert sorted(found.iter_rows()) == sorted(joined.iter_rows())
