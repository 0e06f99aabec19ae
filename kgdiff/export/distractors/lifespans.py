"""People who could not have held a role in the year a record asks about
(docs/benchmark-export.md#people-of-the-year-asked): "In 1792, who was the head of government
of the United States of America?" was offered Donald Tusk (born 1957) and David Cameron (born
1966), and "In 1864, …" George Washington (died 1799) as the outdated option: a model finds
the gold from the year alone. A person is *not alive* in a year Y when born (the earliest
date of birth, P569, in any snapshot) after Y or dead (the latest date of death, P570) before
Y; the dates come from ``sql/export/entity_dates.sql``, and a person without them in the
store is kept. No option of a record asked about a year, other than its gold, is someone not alive
in it (:mod:`kgdiff.export.distractors.noise_frames`, :mod:`kgdiff.export.records.option_frames`,
:mod:`kgdiff.export.temporal.abstention_frames`).

The dates are read lazily, for the values that may be offered (the people among the
distractor tiers a record asked about a year draws from, and its outdated objects), each id
once per export (:class:`Lifespans`)."""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

LIFESPAN_SCHEMA = pl.Schema({"value": pl.String(), "born": pl.Int64(), "died": pl.Int64()})
"""A person's year of birth (``born``, the earliest) and of death (``died``, the latest),
null without."""
OUTDATED_LABELS = (
    "outdated_labels", "outdated_label_forms", "outdated_label_phrases", "outdated_label_values",
)  # fmt: skip
"""The lists the outdated option is chosen from
(:data:`~kgdiff.export.records.answer_frames.ANSWER_COLUMNS`), one item per outdated object."""


def lifespans_of(dates: pl.DataFrame) -> pl.DataFrame:
    """The years of birth and death (:data:`LIFESPAN_SCHEMA`) of the entities of ``dates``
    (:data:`~kgdiff.export.core.entity_dates.ENTITY_DATES_SCHEMA`) that have some."""
    spans = dates.select(pl.col("qid").alias("value"), "born", "died")
    return spans.filter(pl.col("born").is_not_null() | pl.col("died").is_not_null()).cast(
        LIFESPAN_SCHEMA
    )


class Lifespans:
    """The lifespans of the values asked so far, each read once (by ``read``, the frame of
    :func:`lifespans_of` for a list of ids)."""

    def __init__(self, read: Callable[[list[str]], pl.DataFrame]) -> None:
        self._read = read
        self._asked = pl.DataFrame(schema={"value": pl.String()})
        self._found = pl.DataFrame(schema=LIFESPAN_SCHEMA)

    def of(self, values: pl.Series) -> pl.DataFrame:
        """The lifespans of those of ``values`` that have one (read if not asked before)."""
        wanted = values.cast(pl.String()).drop_nulls().unique().to_frame("value")
        new = wanted.join(self._asked, on="value", how="anti").get_column("value").sort()
        if new.len():
            found = self._read(new.to_list()).cast(LIFESPAN_SCHEMA)
            self._found = pl.concat([self._found, found])
            self._asked = pl.concat([self._asked, new.to_frame()])
        return self._found.join(wanted, on="value", how="semi")


def not_alive(year: pl.Expr) -> pl.Expr:
    """Whether the row's person (columns ``born``, ``died``) was not alive in ``year``: false
    where a date, or the year, is unknown."""
    return ((pl.col("born") > year) | (pl.col("died") < year)).fill_null(False)


def living(rows: pl.DataFrame, year: str, lifespans: pl.DataFrame) -> pl.DataFrame:
    """The ``rows`` (with ``value`` and the ``year`` column) whose value was alive in its
    year, in order."""
    if not lifespans.height:
        return rows
    found = rows.join(lifespans, on="value", how="left", maintain_order="left")
    return found.filter(~not_alive(pl.col(year))).drop("born", "died")


def living_outdated(frame: pl.DataFrame, year: str, lifespans: Lifespans | None) -> pl.DataFrame:
    """``frame`` whose :data:`OUTDATED_LABELS` hold only the outdated objects alive in its
    ``year`` (the next outdated object stands in for one who was not; none, if none was)."""
    if lifespans is None or not frame.height:
        return frame
    names = list(OUTDATED_LABELS)
    rows = frame.select("_id", pl.col(year).alias("_year"), *names).explode(names)
    rows = rows.drop_nulls("outdated_label_values").rename({"outdated_label_values": "value"})
    spans = lifespans.of(rows.get_column("value"))
    kept = living(rows, "_year", spans).rename({"value": "outdated_label_values"})
    lists = kept.group_by("_id", maintain_order=True).agg(names)
    found = frame.select("_id").join(lists, on="_id", how="left", maintain_order="left")
    found = found.with_columns(pl.col(names).fill_null(pl.lit([], pl.List(pl.String()))))
    return frame.with_columns(found.get_column(name) for name in names)


def request_spans(
    requests: pl.DataFrame,
    plan: pl.DataFrame,
    members: pl.DataFrame,
    people: pl.DataFrame,
    lifespans: Lifespans | None,
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``_id``, ``_year`` of the distractor ``requests`` asked about a year (their column
    ``year``, if any), and the lifespans of the people (``people``: ``cand``, ``value``) of the
    tiers (``members``: ``tier``, ``cand``) the ``plan`` (``_id``, ``tier``) draws from for
    them; none without ``lifespans``."""
    years = pl.DataFrame(schema={"_id": pl.String(), "_year": pl.Int64()})
    if "year" in requests.columns:
        years = requests.select("_id", pl.col("year").cast(pl.Int64()).alias("_year"))
        years = years.drop_nulls("_year")
    if lifespans is None or not years.height:
        return years, pl.DataFrame(schema=LIFESPAN_SCHEMA)
    planned = plan.join(years, on="_id", how="semi").select("tier").unique()
    held = members.join(planned, on="tier", how="semi").select("cand").unique()
    return years, lifespans.of(people.join(held, on="cand", how="semi").get_column("value"))


def alive_in_year(drawn: pl.DataFrame, years: pl.DataFrame, spans: pl.DataFrame) -> pl.DataFrame:
    """The ``drawn`` rows (``_id``, ``value``) but those of a person not alive in the year
    their request asks about (``years``: ``_id``, ``_year``; ``spans``: the people's
    lifespans), in order."""
    if not spans.height or not years.height:
        return drawn
    dated = drawn.join(years, on="_id", how="left", maintain_order="left")
    return living(dated, "_year", spans).drop("_year")
