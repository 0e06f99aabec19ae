"""The ``temporal`` config's items about one statement, a frame of rows at once: when it
started or ended (``timestamp``) and how long it held (``interval``), from its start (P580)
and end (P582) qualifiers in the snapshot read (docs/benchmark-export.md#the-temporal-config).

Distractors are the gold date moved 1 to :data:`NOISE_STEPS` years, or the gold count moved
as many units, tried in an order fixed by the record's id; such a text never reads as the
gold (another year, another count), so the first valid offsets are taken.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import polars as pl

from kgdiff.export.core.column_draws import first_valid
from kgdiff.export.records.options import UNKNOWN_OPTION
from kgdiff.export.rules.existence import ANSWER_NOT_YET_EXISTING, not_yet_existing
from kgdiff.export.rules.subject_echo import ANSWER_NAMES_SUBJECT, without_naming
from kgdiff.export.rules.tautology import TAUTOLOGY, Asked, judge_frame, without_restating
from kgdiff.export.temporal import dates
from kgdiff.export.temporal.choices import mc_question, offsets_order, ordered_options, truth
from kgdiff.export.temporal.setting import TemporalSetting, named, records, with_words
from kgdiff.export.temporal.wording import interval_texts, people, timestamp_texts
from kgdiff.export.words.answer_hygiene import placeholder_reason

NOISE_STEPS = 6
"""Distractor dates and durations lie 1 to this many years (or units) from the gold."""
Built = tuple[pl.DataFrame, pl.Series]
"""A kind's records, and why each row left out has none."""
ASKED = Asked(("subject_label", "text"), ("question", "_say"))
"""What a date or a duration must not be named in (:mod:`kgdiff.export.rules.tautology`): the
subject's and the object's labels, the question and the statement."""


def bound_reason(bound: str, prefix: str) -> pl.Expr:
    """Why the start or end of a statement (the row's ``bound`` columns, its value key read
    as the date columns of ``prefix``) cannot be asked, null when it can."""
    col = pl.col
    return (
        pl.when(
            (col(f"{bound}_snaktype") != "value") | ~(col(f"{bound}_values") > 0).fill_null(False)
        )
        .then(pl.lit("unknown_date"))
        .when(col(f"{bound}_values") > 1)
        .then(pl.lit("several_dates"))
        .when(col(f"{prefix}_precision").is_null())
        .then(pl.lit("coarser_than_year"))
        .when(col(f"{bound}_after"))
        .then(pl.lit("after_snapshot"))
    )


HELD_AGAIN = "held_more_than_once"
"""Why a start, an end or a length is not asked when the object held the value in more than
one span: "When did Michelle Bachelet become the head of state of Chile?" has two answers."""


def held_again_reason(bound: str | None) -> pl.Expr:
    """Why a statement's start (``bound`` ``start``), end (``end``) or length (None) has
    another true answer, null when it has none: another statement of the group has the same
    object (for an end, another that ended too), or the object held the same position (P39)
    in another statement, as a second term."""
    col = pl.col
    again = {
        "start": col("object_statements") > 1,
        "end": col("object_ends") > 1,
        None: col("object_statements") > 1,
    }[bound]
    return pl.when(again | col("office_held_again")).then(pl.lit(HELD_AGAIN))


NAMESAKE_BEFORE = "earlier_value_of_the_same_name"
"""Why a start is not asked: the group held, just before it, an object whose name holds this
one's ("Kingdom of Italy" before "Italy" as Turin's country, "West Germany" before "Germany"):
the start marks a new form of the object, not the subject joining it, and "In which year did
Turin become part of Italy?" would be answered 1946 of a city in Italy since 1861."""


def namesake_before(frame: pl.DataFrame, words: pl.DataFrame) -> pl.Expr:
    """:data:`NAMESAKE_BEFORE` for the start rows of ``frame`` whose ``earlier_values`` hold
    an object whose name holds the object's whole name and more, by the values' ``words``
    (``value``, ``main``: their main text), null for the others."""
    words = words.select("value", "main").drop_nulls()
    pairs = (
        frame.filter(pl.col("bound") == "start")
        .select("_id", "value", pl.col("earlier_values").alias("earlier"))
        .explode("earlier")
        .join(words, on="value")
        .join(words.rename({"value": "earlier", "main": "earlier_main"}), on="earlier")
        # a substring first, column-wise: the word boundaries are checked on the few left
        .filter(
            pl.col("earlier_main").str.contains(pl.col("main"), literal=True)
            & (pl.col("earlier_main") != pl.col("main"))
        )
    )
    found = [
        row_id
        for row_id, name, earlier in pairs.select("_id", "main", "earlier_main").iter_rows()
        if re.search(rf"(?<!\w){re.escape(name)}(?!\w)", earlier)
    ]
    return pl.when(pl.col("_id").is_in(pl.Series(found, dtype=pl.String).implode())).then(
        pl.lit(NAMESAKE_BEFORE)
    )


def life(start: pl.Expr) -> pl.Expr:
    """Why a start that may be the subject's birth (``at_birth``), or an end that may be its
    death (``at_death``), is not asked: the question would ask the birth or the death in
    disguise ("When did Albert Einstein stop being a citizen of Switzerland?": he died)."""
    return (
        pl.when(start & pl.col("started_at_birth"))
        .then(pl.lit("at_birth"))
        .when(~start & pl.col("ended_at_death"))
        .then(pl.lit("at_death"))
    )


def _asked(frame: pl.DataFrame, setting: TemporalSetting, first: pl.Expr) -> pl.DataFrame:
    """``frame`` named, with the object's words (``text``) and ``_reason`` (``first``, the
    kind's own reasons, then the subject's, then a placeholder object's and an object without
    words)."""
    frame = with_words(named(frame, setting).drop("text", "_object", strict=False), setting)
    reason = pl.coalesce(
        first,
        pl.col("_subject_reason"),
        placeholder_reason(pl.concat_list("value")),
        pl.when(pl.col("text").is_null()).then(pl.lit("no_object_text")),
    )
    return frame.with_columns(_reason=reason)


def _dated(rows: pl.DataFrame) -> pl.DataFrame:
    """The rows with the dates of their start and end (``_start_*``, ``_end_*``)."""
    frame = dates.with_date(rows, pl.col("start_value"), "_start")
    return dates.with_date(frame, pl.col("end_value"), "_end")


def _statement_dates() -> list[pl.Expr]:
    """``start`` and ``end`` with their precisions, for a date with one known value."""
    fields = []
    for bound in ("start", "end"):
        one = pl.col(f"{bound}_values") == 1
        fields.append(pl.when(one).then(dates.iso(f"_{bound}")).alias(bound))
        name = dates.precision_name(f"_{bound}")
        fields.append(pl.when(one).then(name).alias(f"{bound}_precision"))
    return fields


Valid = Callable[[pl.DataFrame, npt.NDArray[np.int64]], npt.NDArray[np.bool_]]
"""Which offsets (a row per row of the frame) give a distractor."""


def _distractors(
    frame: pl.DataFrame,
    valid: Valid,
    text: Callable[[pl.Expr], pl.Expr],
    size: int,
) -> tuple[pl.DataFrame, pl.Series]:
    """``_others`` ("I don't know", then the first ``size - 2`` offsets that are ``valid``,
    as ``text``) and their types, and whether each row had enough."""
    offsets = offsets_order(frame.get_column("_id"), NOISE_STEPS)
    picked, enough = first_valid(offsets, valid(frame, offsets), size - 2)
    noise = [text(pl.lit(pl.Series(picked[:, index]))) for index in range(size - 2)]
    frame = frame.with_columns(
        _others=pl.concat_list(pl.lit(UNKNOWN_OPTION), *noise),
        _other_types=pl.lit(["unknown", *["noise"] * (size - 2)], pl.List(pl.String)),
    )
    return frame, pl.Series(enough)


def _choices(
    frame: pl.DataFrame,
    setting: TemporalSetting,
    valid: Valid,
    text: Callable[[pl.Expr], pl.Expr],
) -> Built:
    """The asked rows of ``frame`` (no ``_reason``) with their options and true/false
    statements (``_say`` then an option), and every left-out row's reason."""
    size, seed = setting.options, setting.seed
    asked = frame.filter(pl.col("_reason").is_null())
    given, restating = judge_frame(
        asked, "answers", "answer_labels", ASKED.slots, ASKED.texts, values="objects"
    )
    asked = asked.filter(~pl.col("_id").is_in(given.implode()))
    asked = without_restating(asked, restating, ("answers",))
    asked, naming = without_naming(asked, "answer_labels", "subject_needles")
    # the object began after the subject ended, or after the statement started
    late = not_yet_existing(asked, "objects", setting.existence, setting.catalogue, "_start_year")
    asked = asked.filter(~pl.col("_id").is_in(late.implode()))
    asked, enough = _distractors(asked, valid, text, size)
    reasons = pl.concat(
        [
            frame.get_column("_reason").drop_nulls(),
            pl.repeat(TAUTOLOGY, given.len(), dtype=pl.String, eager=True),
            pl.repeat(ANSWER_NAMES_SUBJECT, naming, dtype=pl.String, eager=True),
            pl.repeat(ANSWER_NOT_YET_EXISTING, late.len(), dtype=pl.String, eager=True),
            pl.repeat("too_few_options", int((~enough).sum()), dtype=pl.String, eager=True),
        ]
    )
    asked = asked.filter(enough)
    asked = ordered_options(asked, seed, "correct").with_columns(
        mc_question=mc_question(size),
        _true_statement=pl.concat_str("_say", "_gold", pl.lit(".")),
        _false_statement=pl.concat_str(
            "_say", pl.col("_others").list.get(1, null_on_oob=True), pl.lit(".")
        ),
    )
    return truth(asked), reasons


def timestamp_records(rows: pl.DataFrame, setting: TemporalSetting) -> Built:
    """When each statement started or ended (``bound``), at its qualifier's precision; and
    why the rows left out are not asked."""
    start = pl.col("bound") == "start"
    frame = _dated(rows).with_columns(
        pl.when(start).then(pl.col("start_value")).otherwise(pl.col("end_value")).alias("_key"),
        **{
            f"when_{part}": pl.when(start)
            .then(pl.col(f"start_{part}"))
            .otherwise(pl.col(f"end_{part}"))
            for part in ("snaktype", "values", "after")
        },
    )
    frame = dates.with_date(frame, pl.col("_key"), "_when")
    again = pl.when(start).then(held_again_reason("start")).otherwise(held_again_reason("end"))
    first = pl.coalesce(
        bound_reason("when", "_when"),
        life(start),
        again,
        namesake_before(frame, setting.choices.words),
    )
    frame = _asked(frame, setting, first)
    frame = frame.with_columns(
        _gold=dates.words("_when"), **timestamp_texts(people(frame, setting), start)
    ).with_columns(
        *_statement_dates(),
        answers=pl.concat_list("_gold", dates.alias("_when")).list.drop_nulls(),
        answer_labels=pl.concat_list("_gold"),
        objects=pl.concat_list("value"),
        object_labels=pl.concat_list("text"),
        date=dates.iso("_when"),
        date_precision=dates.precision_name("_when"),
    )
    kept, reasons = _choices(
        frame, setting, _era_kept, lambda offset: dates.shifted_words("_when", offset)
    )
    return records(kept, "timestamp", setting), reasons


def _era_kept(frame: pl.DataFrame, offsets: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """The offsets that keep the date on its side of the start of the common era."""
    year = frame.get_column("_when_year").to_numpy()[:, None]
    moved = year + offsets
    kept: npt.NDArray[np.bool_] = ((moved > 0) == (year > 0)) & (moved != 0)
    return kept


def _positive(frame: pl.DataFrame, offsets: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """The offsets that leave a count above 0."""
    count: npt.NDArray[np.int64] = frame.get_column("duration").to_numpy()[:, None] + offsets
    return count > 0


def interval_records(rows: pl.DataFrame, setting: TemporalSetting) -> Built:
    """How long each statement held, from its start and end; and why the rows left out are
    not asked."""
    frame = _dated(rows).with_columns(*dates.held_for("_start", "_end"))
    first = pl.coalesce(
        bound_reason("start", "_start"),
        bound_reason("end", "_end"),
        pl.col("held_reason"),
        held_again_reason(None),
    )
    frame = _asked(frame, setting, first)
    count, unit = pl.col("duration"), pl.col("duration_unit")
    frame = frame.with_columns(
        _gold=dates.duration_text(count, unit),
        **interval_texts(people(frame, setting)),
        objects=pl.concat_list("value"),
        object_labels=pl.concat_list("text"),
    ).with_columns(
        *_statement_dates(),
        answers=pl.concat_list("_gold", count.cast(pl.String)),
        answer_labels=pl.concat_list("_gold"),
    )
    kept, reasons = _choices(
        frame, setting, _positive, lambda offset: dates.duration_text(count + offset, unit)
    )
    return records(kept, "interval", setting), reasons
