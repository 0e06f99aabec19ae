"""The rows each kind of ``temporal`` item is built from, assembled with polars from the
statements of the snapshot read (``sql/export/temporal_statements.sql``) and the periods whose
objects are known without doubt (``sql/export/temporal_periods.sql``), each with the id of its
record (docs/benchmark-export.md#the-temporal-config)."""

from __future__ import annotations

from collections import Counter
from datetime import date

import polars as pl

from kgdiff.export.temporal.years import YEARS_BEFORE_BIRTH, pick_year
from kgdiff.export.words.answer_hygiene import UNKNOWN_VALUE, UNKNOWN_VALUE_REASON

KNOWN = ["value", "somevalue"]
"""A bound is asked about when the data have it, as a value or as unknown (never "no end")."""


def _key(kind: str, *parts: str | pl.Expr) -> pl.Expr:
    pieces: list[str | pl.Expr] = [pl.lit(f"temporal/{kind}")]
    for part in parts:
        pieces += [pl.lit("/"), part]
    return pl.concat_str(pieces)


STATEMENT = pl.coalesce("statement_id", "value")
TIMESTAMP_KEY = _key("timestamp", "subject", "pid", STATEMENT, "bound")
INTERVAL_KEY = _key("interval", "subject", "pid", STATEMENT)
YEAR_KEY = {
    kind: _key(kind, "subject", "pid", pl.col("year").cast(pl.String()))
    for kind in ("implicit", "unanswerable")
}


STATEMENT_COLUMNS = [
    "subject", "pid", "statement_id", "value", "start_snaktype", "start_value", "start_values",
    "end_snaktype", "end_value", "end_values", "started_at_birth", "ended_at_death",
    "object_statements", "object_ends", "office_held_again",
]  # fmt: skip
"""What a statement's items are built from (no date: a date before the common era has no
Python value)."""


def _statements(facts: pl.DataFrame, snapshot_date: date | None) -> pl.DataFrame:
    """The statements' columns, with whether their start and end may fall after the
    snapshot's date (``start_after``, ``end_after``)."""
    day = pl.lit(snapshot_date, dtype=pl.Date())
    return facts.select(
        *STATEMENT_COLUMNS,
        start_after=(pl.col("start_hi") > day).fill_null(False),
        end_after=(pl.col("end_hi") > day).fill_null(False),
    )


def _earlier_values(facts: pl.DataFrame) -> pl.DataFrame:
    """Per statement with a start (``subject``, ``pid``, ``statement_id``, ``value``), the
    other objects of its group whose statement ended by the time it may have started
    (``earlier_values``): what the subject held just before, "Kingdom of Italy" before "Italy"
    as Turin's country."""
    keys = ["subject", "pid", "statement_id", "value"]
    started = facts.filter(pl.col("start_snaktype") == "value").select(*keys, "start_hi")
    ended = facts.filter(pl.col("end_snaktype") == "value").select(
        "subject", "pid", pl.col("value").alias("earlier"), "end_lo"
    )
    pairs = started.join(ended, on=["subject", "pid"]).filter(
        (pl.col("end_lo") <= pl.col("start_hi")) & (pl.col("earlier") != pl.col("value"))
    )
    return pairs.group_by(keys, maintain_order=True).agg(
        earlier_values=pl.col("earlier").unique(maintain_order=True)
    )


def timestamp_rows(facts: pl.DataFrame, snapshot_date: date | None) -> pl.DataFrame:
    """One row per statement and bound (start, end) the data give, a start with the objects
    its group held before it (``earlier_values``, null without any)."""
    statements = _statements(facts, snapshot_date).join(
        _earlier_values(facts),
        on=["subject", "pid", "statement_id", "value"],
        how="left",
        nulls_equal=True,
        maintain_order="left",
    )
    parts = [
        statements.filter(pl.col(f"{bound}_snaktype").is_in(KNOWN)).with_columns(
            bound=pl.lit(bound)
        )
        for bound in ("start", "end")
    ]
    return pl.concat(parts)


def interval_rows(facts: pl.DataFrame, snapshot_date: date | None) -> pl.DataFrame:
    """The statements with both a start and an end."""
    return _statements(facts, snapshot_date).filter(
        pl.col("start_snaktype").is_in(KNOWN) & pl.col("end_snaktype").is_in(KNOWN)
    )


def year_of(day: pl.Expr) -> pl.Expr:
    """The year of a stored date (1 BCE is 0). polars knows none beyond ±262,143 years,
    where the store keeps dates of deep time (clamped to DuckDB's range, millions of years
    away): there, the year by the mean Gregorian year, as far from any year asked about as
    the date is, so every comparison with one decides as the true year would."""
    days = day.cast(pl.Int32).cast(pl.Int64)
    return pl.coalesce(
        day.dt.year().cast(pl.Int64), (days / 365.2425 + 1970).floor().cast(pl.Int64)
    )


def group_summary(facts: pl.DataFrame) -> pl.DataFrame:
    """One row per group: its objects, earliest start first (``group_objects``), the year
    each may first hold (``group_starts``, null when it has no known first day), whether a
    statement has a start or an end (``ranged``), the earliest day one may hold
    (``earliest``, a year) and whether each has a known first day (``all_started``), the
    subject's year of birth (``birth``, null when its birth dates span more than one year:
    ``birth_years`` says so) and the year of its end of existence (``existence_end``; years
    count 1 BCE as 0)."""
    ranged = pl.col("start_snaktype").is_in(KNOWN) | pl.col("end_snaktype").is_in(KNOWN)
    lower = (
        pl.when(ranged & (pl.col("start_snaktype") == "value"))
        .then(pl.col("start_lo"))
        .when(~ranged & (pl.col("point_snaktype") == "value"))
        .then(pl.col("point_lo"))
    )
    dated = facts.with_columns(_ranged=ranged.fill_null(False), _lower=lower)
    dated = dated.with_columns(
        _first=year_of(pl.col("_lower")).min().over("subject", "pid", "value")
    ).sort("subject", "pid", "_lower", "value", nulls_last=False)
    return dated.group_by("subject", "pid", maintain_order=True).agg(
        group_objects=pl.col("value").unique(maintain_order=True),
        group_starts=pl.col("_first").gather(pl.col("value").arg_unique()),
        ranged=pl.col("_ranged").any(),
        earliest=year_of(pl.col("_lower").min()),
        all_started=pl.col("_lower").is_not_null().all(),
        birth=year_of(pl.col("birth_lo").first()),
        birth_years=year_of(pl.col("birth_hi").first()) - year_of(pl.col("birth_lo").first()) + 1,
        existence_end=year_of(pl.col("existence_end_lo").first()),
    )


def _years(spans: pl.DataFrame, what: str | None = None) -> pl.Series:
    """A year of each row's [``first``, ``last``] drawn from its group and ``what`` it is
    for (the period's first year when None): :func:`pick_year`, the same whatever the seed."""
    columns = [spans.get_column(name).to_list() for name in ("subject", "pid", "first", "last")]
    years = [
        pick_year(first, last, subject, pid, what or str(first))
        for subject, pid, first, last in zip(*columns, strict=True)
    ]
    return pl.Series(years, dtype=pl.Int64())


def implicit_rows(periods: pl.DataFrame, summary: pl.DataFrame) -> pl.DataFrame:
    """One row per period, with a year of it (drawn from the group and the period's first
    year) and the group's objects with the years they may first hold."""
    spans = periods.rename({"first_year": "first", "last_year": "last"})
    rows = periods.with_columns(year=_years(spans))
    group = summary.select("subject", "pid", "group_objects", "group_starts")
    return rows.join(group, on=["subject", "pid"])


def known_value_rows(implicit: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The rows of :func:`implicit_rows`, less the years whose only objects are unknown
    (``<somevalue>``: the data say there was one, not which), which are asked as
    unanswerable years instead (reason ``unknown_value``, the abstention is the answer)."""
    unknown = pl.col("objects").list.eval(pl.element() == UNKNOWN_VALUE).list.all()
    unknown = unknown & (pl.col("objects").list.len() > 0)
    years = implicit.filter(unknown).select(
        "subject", "pid", "group_objects", "year", reason=pl.lit(UNKNOWN_VALUE_REASON)
    )
    return implicit.filter(~unknown), years


def before_subject_rows(summary: pl.DataFrame, tally: Counter[str]) -> pl.DataFrame:
    """Each group with a start or an end whose subject was born in a known year (a birth,
    P569: an inception, P571, is often a charter, an independence or a refoundation of
    something that existed before), asked about one of the years before its birth in which
    no statement may hold; why the others are not asked is counted in ``tally``."""
    ranged = summary.filter(pl.col("ranged"))
    dated = ranged.filter(pl.col("birth_years").is_not_null())
    born = dated.filter(pl.col("birth_years") == 1)
    started = born.filter(pl.col("all_started")).with_columns(
        first=pl.max_horizontal(pl.lit(1), pl.col("birth") - YEARS_BEFORE_BIRTH),
        last=pl.min_horizontal("birth", "earliest") - 1,
    )
    groups = started.filter(pl.col("first") <= pl.col("last"))
    tally["no_birth_date"] += ranged.height - dated.height
    tally["birth_year_uncertain"] += dated.height - born.height
    tally["statement_without_start"] += born.height - started.height
    tally["no_year_before_birth"] += started.height - groups.height
    return groups.select(
        "subject",
        "pid",
        "group_objects",
        year=_years(groups, "before_subject"),
        reason=pl.lit("before_subject"),
    )
