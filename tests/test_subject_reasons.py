"""Why a subject is not asked about (kgdiff.export.rules.salience), worked out once per
(subject, relation) pair and joined back to the rows: every row gets the reason the rules give
its own subject and relation, in the rules' order, whatever repeats and orders the rows have;
``asked_subjects`` keeps exactly the rows without one, in their order, with the facts a record
reads and the counts per reason."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from kgdiff.export.relations.catalogue import load_catalogue
from kgdiff.export.rules.salience import (
    AMBIGUOUS,
    CLASS_NOT_ASKED,
    FEW_PAGEVIEWS,
    FEW_SITELINKS,
    NOT_A_PLACE,
    SUBJECT_SCHEMA,
    UNLABELLED,
    Salience,
    asked_subjects,
    with_subject_reason,
)

CATALOGUE = load_catalogue(None)
PIDS = ("P17", "P131", "P571", "P1082", "P6", "P27")
"""Relations with and without ``not_asked_of`` and ``places_only`` in the shipped catalogue."""
SUBJECTS = tuple(f"Q{n}" for n in range(1, 9))
CLASSES = ("Q6256", "Q515", "Q5", "Q634", "Q43229")

fact_rows = st.fixed_dictionaries(
    {
        "subject_label": st.sampled_from([None, "Alexandria", "Malta"]),
        "sitelinks": st.integers(0, 3),
        "popularity": st.sampled_from([None, 0.5, 2.0, 5.0]),
        "subject_classes": st.lists(st.sampled_from(CLASSES), max_size=2, unique=True),
        "subject_located": st.booleans(),
        "subject_outranked": st.booleans(),
        "subject_ended": st.booleans(),
    }
)


def facts_frame(facts: dict[str, dict[str, Any]]) -> pl.DataFrame:
    rows = [
        {
            **{name: None for name in SUBJECT_SCHEMA},
            "subject": subject,
            **fact,
            "subject_phrase": fact["subject_label"],
            "subject_plural": False,
            "subject_needles": [fact["subject_label"] or subject],
        }
        for subject, fact in facts.items()
    ]
    return pl.DataFrame(rows, schema=SUBJECT_SCHEMA)


def expected_reason(fact: dict[str, Any] | None, pid: str, salience: Salience) -> str | None:
    """The rules of the module's docstring, read one row at a time."""
    relation = CATALOGUE[pid]
    if fact is None or fact["subject_label"] is None:
        return UNLABELLED
    if fact["sitelinks"] < salience.min_sitelinks:
        return FEW_SITELINKS
    floor = salience.popularity_floor()
    if floor is not None and (fact["popularity"] is None or fact["popularity"] < floor):
        return FEW_PAGEVIEWS
    if set(fact["subject_classes"]) & set(relation.not_asked_of):
        return CLASS_NOT_ASKED
    if relation.places_only and not fact["subject_located"]:
        return NOT_A_PLACE
    return AMBIGUOUS if fact["subject_outranked"] else None


@given(
    facts=st.dictionaries(st.sampled_from(SUBJECTS[:6]), fact_rows, max_size=6),
    rows=st.lists(st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(PIDS)), max_size=30),
    min_sitelinks=st.integers(0, 2),
    min_pageviews=st.sampled_from([None, 1, 10]),
)
def test_each_row_has_its_pairs_reason(
    facts: dict[str, dict[str, Any]],
    rows: list[tuple[str, str]],
    min_sitelinks: int,
    min_pageviews: int | None,
) -> None:
    salience = Salience(min_sitelinks, min_pageviews)
    frame = pl.DataFrame(
        {"subject": [s for s, _ in rows], "pid": [p for _, p in rows], "n": range(len(rows))},
        schema={"subject": pl.String(), "pid": pl.String(), "n": pl.Int64()},
    )
    wanted = [expected_reason(facts.get(s), p, salience) for s, p in rows]

    reasoned = with_subject_reason(frame, facts_frame(facts), salience, CATALOGUE)
    assert reasoned.get_column("n").to_list() == list(range(len(rows)))
    assert reasoned.get_column("_subject_reason").to_list() == wanted
    assert "subject_classes" not in reasoned.columns and "sitelinks" not in reasoned.columns
    labels = [(facts.get(s) or {}).get("subject_label") for s, _ in rows]
    assert reasoned.get_column("subject_label").to_list() == labels

    tally: dict[str, int] = {}
    kept = asked_subjects(
        frame, facts_frame(facts), salience, CATALOGUE, tally, drop=("subject_needles",)
    )
    assert kept.get_column("n").to_list() == [n for n, why in enumerate(wanted) if why is None]
    assert tally == dict(Counter(why for why in wanted if why is not None))
    assert "subject_needles" not in kept.columns and "popularity" in kept.columns
    assert kept.columns == [
        c for c in reasoned.columns if c not in ("subject_needles", "_subject_reason")
    ]


def test_a_floor_of_page_views_is_their_logarithm() -> None:
    assert Salience(1, 10).popularity_floor() == math.log(11)
