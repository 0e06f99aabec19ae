"""The ``temporal`` config's items about a group in a year, a frame of rows at once: what its
objects were in a year they are known without doubt (``implicit``), and years no one can
answer, whose gold is the abstention (``unanswerable``)
(docs/benchmark-export.md#the-temporal-config).

Everything is worked out column-wise: the options from the export's shared words and
distractor tiers (:mod:`kgdiff.export.records.choice_frames`,
:mod:`kgdiff.export.temporal.abstention_frames`), then questions, statements, order and letters."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import polars as pl

from kgdiff.export.core.seeded import fixed_rng
from kgdiff.export.records.choice_frames import answered_choices
from kgdiff.export.records.options import UNKNOWN_OPTION
from kgdiff.export.relations.columns import rendered
from kgdiff.export.rules.existence import without_not_yet
from kgdiff.export.rules.tautology import TAUTOLOGY, Asked
from kgdiff.export.scoring.text_match import UNKNOWN_PHRASES
from kgdiff.export.temporal.abstention_frames import abstention_others
from kgdiff.export.temporal.choices import mc_question, ordered_options, truth
from kgdiff.export.temporal.items import Built
from kgdiff.export.temporal.setting import TemporalSetting, named, records
from kgdiff.export.words.answer_hygiene import without_placeholders
from kgdiff.export.words.forms import normalised

YEARS_BEFORE_BIRTH = 10
"""An unanswerable year is one of the this many years before the subject's birth."""
ABSTENTION_LABELS = [UNKNOWN_OPTION, "Unknown"]
"""kgdiff's wording of an abstention, and EvolveBench's."""


def _distinct(texts: Iterable[str]) -> list[str]:
    kept: dict[str, str] = {}
    for text in texts:
        kept.setdefault(normalised(text), text)
    return list(kept.values())


ABSTENTIONS = _distinct([*ABSTENTION_LABELS, *UNKNOWN_PHRASES])
"""Every abstention the scoring recognises
(:data:`kgdiff.export.scoring.text_match.UNKNOWN_PHRASES`), the labels first: the answers of an
unanswerable item."""
_TEXTS = pl.List(pl.String)
BLANK = "\x00"
"""The object of a statement checked for tautologies (:data:`kgdiff.export.records.asked.BLANK`)."""
ASKED = Asked(("subject_label",), ("question", "_blank_statement"))
"""The texts of an implicit item that must not name its answer
(:mod:`kgdiff.export.rules.tautology`)."""


def pick_year(first: int, last: int, *parts: str) -> int:
    """A year of ``[first, last]`` drawn from ``parts`` (the group and what the year is
    for), the same whatever the seed."""
    return first + fixed_rng("/".join(parts), "year").randrange(last - first + 1)


def _reasons(frame: pl.DataFrame, tally: Counter[str]) -> pl.Series:
    """Why each row left out has no record: its ``_reason``, or what ``tally`` counted."""
    reasons = frame.get_column("_reason").drop_nulls().to_list()
    reasons += [reason for reason, count in sorted(tally.items()) for _ in range(count)]
    return pl.Series(reasons, dtype=pl.String)


def _outdated_objects(frame: pl.DataFrame) -> pl.DataFrame:
    """``_id``, ``others`` (the group's objects that are not the year's, in order),
    ``outdated`` (those of them not known to have first held after the year: a later object
    is no outdated answer) and ``offered_outdated`` (those known to have held before it)."""
    every = frame.select(
        "_id", "year", pl.col("group_objects").alias("value"), pl.col("group_starts").alias("from")
    ).explode(["value", "from"])
    year = frame.select("_id", pl.col("objects").alias("value")).explode("value")
    other = every.drop_nulls("value")
    other = other.join(year, on=["_id", "value"], how="anti", maintain_order="left")
    found = other.group_by("_id", maintain_order=True).agg(
        pl.col("value").alias("others"),
        pl.col("value")
        .filter(pl.col("from").is_null() | (pl.col("from") <= pl.col("year")))
        .alias("outdated"),
        pl.col("value").filter(pl.col("from") < pl.col("year")).alias("offered_outdated"),
    )
    empty = pl.lit([], _TEXTS)
    return (
        frame.select("_id")
        .join(found, on="_id", how="left", maintain_order="left")
        .select("_id", pl.col("others", "outdated", "offered_outdated").fill_null(empty))
    )


def implicit_choices(
    frame: pl.DataFrame, setting: TemporalSetting, tally: Counter[str]
) -> pl.DataFrame:
    """The rows of ``frame`` (``_id``, ``pid``, ``objects``, ``group_objects``,
    ``group_starts``, ``year``, and the texts of :data:`ASKED`) that can be asked, with their
    options already in the seed's order (``options``, ``choice_types``, ``gold``; ``_draw``,
    the seeded digest :func:`~kgdiff.export.temporal.choices.truth` tosses its coin from),
    ``_gold``, ``_wrong``, their answers' words and ``outdated``: the year's objects are the
    latest, the group's other objects outdated unless known to have first held after the
    year (none of the group's objects is a distractor), those that held before the year the
    outdated option's, no person offered but the gold one not alive in the year
    (:func:`~kgdiff.export.records.choice_frames.answered_choices`)."""
    rows = frame.join(_outdated_objects(frame), on="_id", maintain_order="left")
    rows = rows.with_columns(
        latest=pl.col("objects"), all_answers=pl.concat_list("objects", "others")
    )  # every value of the group stays out of the distractors, a later one too
    built = answered_choices(
        rows.drop("relation", "others"), setting.choices, tally, ASKED, year="year"
    )
    return built.with_columns(
        _gold=pl.col("correct"),
        _wrong=pl.col("wrong"),
        object_labels=pl.col("answer_labels"),
        _draw=pl.col("options_digest"),
        objects=without_placeholders(pl.col("objects")),
    )


def subject_words() -> dict[str, pl.Expr]:
    """How a year's question names its subject: its phrase, its verbs plural where it is."""
    return {"plural": pl.col("subject_plural"), "subject": pl.col("subject_phrase")}


def implicit_records(rows: pl.DataFrame, setting: TemporalSetting) -> Built:
    """What each group's objects were in ``year`` (a year of a period whose objects are
    known without doubt), the group's other objects being outdated; and why the rows left
    out are not asked."""
    frame = named(rows, setting).with_columns(_reason=pl.col("_subject_reason"))
    tally: Counter[str] = Counter()
    catalogue = setting.catalogue
    said = {**subject_words(), "year": pl.col("year")}
    asked = frame.filter(pl.col("_reason").is_null())
    asked = without_not_yet(asked, "objects", setting.existence, catalogue, tally, year="year")
    asked = asked.with_columns(
        question=rendered(asked, catalogue, "question_at", **said),
        _blank_statement=rendered(asked, catalogue, "statement_at", object=pl.lit(BLANK), **said),
    )
    kept = implicit_choices(asked, setting, tally)
    reasons = _reasons(frame, tally)
    correct, wrong = pl.col("correct_phrase"), pl.col("wrong_phrase")
    kept = kept.with_columns(
        _true_statement=rendered(kept, catalogue, "statement_at", object=correct, **said),
        _false_statement=rendered(kept, catalogue, "statement_at", object=wrong, **said),
    )
    kept = truth(kept.with_columns(mc_question=mc_question(setting.options)))
    return records(kept, "implicit", setting), reasons


def unanswerable_records(rows: pl.DataFrame, setting: TemporalSetting) -> Built:
    """Each group asked about ``year``, a year no one can answer (before the subject was
    born, or whose only object is unknown): the gold is the abstention; and why the rows left out
    are not asked."""
    own = pl.col("group_objects").list.contains(pl.col("subject"))
    frame = named(rows, setting).with_columns(
        pl.coalesce(pl.col("_subject_reason"), pl.when(own).then(pl.lit(TAUTOLOGY))).alias(
            "_reason"
        ),
        without_placeholders(pl.col("group_objects")).alias("group_objects"),
    )
    tally: Counter[str] = Counter()
    asked = frame.filter(pl.col("_reason").is_null())
    kept = abstention_others(asked, setting.choices, tally)
    reasons = _reasons(frame, tally)
    said = subject_words()
    kept = kept.with_columns(_gold=pl.lit(UNKNOWN_OPTION))
    kept = ordered_options(kept, setting.seed, "unknown").with_columns(
        question=rendered(kept, setting.catalogue, "question_at", year=pl.col("year"), **said),
        answers=pl.lit(ABSTENTIONS, _TEXTS),
        answer_labels=pl.lit(ABSTENTION_LABELS, _TEXTS),
        objects=pl.lit([], _TEXTS),
        object_labels=pl.lit([], _TEXTS),
        outdated=pl.col("group_objects"),
        unanswerable_reason=pl.col("reason"),
        _other_statement=pl.lit(None, pl.String),
    )
    kept = kept.with_columns(mc_question=mc_question(setting.options))
    return records(kept, "unanswerable", setting), reasons
