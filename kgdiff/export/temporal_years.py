"""The ``temporal`` config's items about a group in a year, a frame of rows at once: what its
objects were in a year they are known without doubt (``implicit``), and years the data cannot
answer, whose gold is the abstention (``unanswerable``)
(docs/benchmark-export.md#the-temporal-config).

Their options come from the store's distractors (:mod:`kgdiff.export.noise`), drawn per row
in Python: only the rows whose subject has a label get that far. The rest (questions,
statements, order, letters) is worked out column-wise."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any

import polars as pl
import pyarrow as pa

from kgdiff.export.dataset_schema import arrow_type
from kgdiff.export.names import Names, main_texts_of, texts_of
from kgdiff.export.options import UNKNOWN_OPTION, Option, chosen_options, normalised
from kgdiff.export.qa_records import answer_texts, option_inputs
from kgdiff.export.relation_columns import rendered
from kgdiff.export.seeded import fixed_rng
from kgdiff.export.temporal_choices import mc_question, ordered_options, truth
from kgdiff.export.temporal_items import Built
from kgdiff.export.temporal_setting import TemporalSetting, named, records
from kgdiff.export.text_match import UNKNOWN_PHRASES

YEARS_PAST_DATA = 10
"""An unanswerable year is one of the first this many years wholly past the data's reach,
or of the this many years before the subject's start of existence."""
ABSTENTION_LABELS = [UNKNOWN_OPTION, "Unknown"]
"""kgdiff's wording of an abstention, and EvolveBench's."""


def _distinct(texts: Iterable[str]) -> list[str]:
    kept: dict[str, str] = {}
    for text in texts:
        kept.setdefault(normalised(text), text)
    return list(kept.values())


ABSTENTIONS = _distinct([*ABSTENTION_LABELS, *UNKNOWN_PHRASES])
"""Every abstention the scoring recognises (:data:`kgdiff.export.text_match.UNKNOWN_PHRASES`),
the labels first: the answers of an unanswerable item."""
_TEXTS = pl.List(pl.String)
Picked = tuple[Any, ...] | str
"""What a row's options were chosen as (the fields of its record), or why it has none."""


def pick_year(first: int, last: int, *parts: str) -> int:
    """A year of ``[first, last]`` drawn from ``parts`` (the group and what the year is
    for), the same whatever the seed."""
    return first + fixed_rng("/".join(parts), "year").randrange(last - first + 1)


def _picked(
    frame: pl.DataFrame,
    pick: Callable[..., Picked],
    columns: Sequence[str],
    schema: dict[str, pl.DataType],
) -> tuple[pl.DataFrame, pl.Series]:
    """The rows of ``frame`` without a ``_reason`` that ``pick`` (given each row's
    ``columns``) chose options for, with the fields it chose (of ``schema``), and every
    left-out row's reason."""
    reasons = frame.get_column("_reason").drop_nulls().to_list()
    labelled = frame.filter(pl.col("_reason").is_null())
    chosen: list[tuple[Any, ...]] = []
    kept: list[bool] = []
    for values in zip(*(labelled.get_column(name).to_list() for name in columns), strict=True):
        fields = pick(*values)
        kept.append(not isinstance(fields, str))
        if isinstance(fields, str):
            reasons.append(fields)
        else:
            chosen.append(fields)
    by_field = list(zip(*chosen, strict=True)) or [() for _ in schema]
    # through Arrow: polars would build a Series for every list of every row (~10 times slower)
    arrays = [
        pa.array(values, type=arrow_type(dtype))
        for values, dtype in zip(by_field, schema.values(), strict=True)
    ]
    chosen_frame = pl.from_arrow(pa.Table.from_arrays(arrays, names=list(schema)))
    assert isinstance(chosen_frame, pl.DataFrame)
    picked = labelled.filter(pl.Series(kept, dtype=pl.Boolean)).hstack(chosen_frame)
    return picked, pl.Series(reasons, dtype=pl.String)


def _split(others: Sequence[Option]) -> tuple[list[str], list[str]]:
    return [text for text, _ in others], [kind for _, kind in others]


def _implicit_pick(
    setting: TemporalSetting, key: str, pid: str, objects: list[str], group_objects: list[str]
) -> Picked:
    names, qa = setting.qa.names, setting.qa
    outdated = [value for value in group_objects if value not in objects]
    texts = answer_texts(names, objects, outdated)
    if texts.correct is None:
        return "no_answer_text"
    relation = setting.catalogue[pid]
    inputs = option_inputs(texts, [*objects, *outdated], relation, qa, key)
    others = chosen_options(inputs, qa.options)
    if others is None:
        return "too_few_options"
    wrong = next((t for kind in ("outdated", "noise") for t, k in others if k == kind), None)
    return (
        inputs.correct, *_split(others), wrong, texts.answers, texts.labels, texts.outdated,
        main_texts_of(names, objects), outdated,
    )  # fmt: skip


IMPLICIT_COLUMNS = ("_id", "pid", "objects", "group_objects")
IMPLICIT_PICKED: dict[str, pl.DataType] = {
    "_gold": pl.String(), "_others": _TEXTS, "_other_types": _TEXTS,
    "_wrong": pl.String(), "answers": _TEXTS, "answer_labels": _TEXTS,
    "outdated_answers": _TEXTS, "object_labels": _TEXTS, "outdated": _TEXTS,
}  # fmt: skip


def _implicit_reasons(frame: pl.DataFrame, names: Names) -> pl.DataFrame:
    """``frame`` with ``_reason``: ``unlabelled_subject``, or ``no_answer_text`` when none of
    the ``objects`` has words (a third of the periods: worked out column-wise, before any
    option is drawn)."""
    values = frame.get_column("objects").explode().drop_nulls().unique()
    texted = values.filter(values.map_elements(names.main_text, pl.String).is_not_null())
    return frame.with_columns(
        _reason=pl.when(pl.col("subject_label").is_null())
        .then(pl.lit("unlabelled_subject"))
        .when(~pl.col("objects").list.eval(pl.element().is_in(texted.implode())).list.any())
        .then(pl.lit("no_answer_text"))
    )


def implicit_records(rows: pl.DataFrame, setting: TemporalSetting) -> Built:
    """What each group's objects were in ``year`` (a year of a period whose objects are
    known without doubt), the group's other objects being outdated; and why the rows left
    out are not asked."""
    frame = _implicit_reasons(named(rows, setting), setting.qa.names)
    pick = partial(_implicit_pick, setting)
    kept, reasons = _picked(frame, pick, IMPLICIT_COLUMNS, IMPLICIT_PICKED)
    qa, catalogue = setting.qa, setting.catalogue
    label, year = pl.col("subject_label"), pl.col("year")
    kept = ordered_options(kept, qa.seed, qa.options, "correct").with_columns(
        question=rendered(kept, catalogue, "question_at", subject=label, year=year),
        _true_statement=rendered(
            kept, catalogue, "statement_at", subject=label, object=pl.col("_gold"), year=year
        ),
        _false_statement=rendered(
            kept, catalogue, "statement_at", subject=label, object=pl.col("_wrong"), year=year
        ),
    )
    kept = truth(kept.with_columns(mc_question=mc_question(qa.options)))
    return records(kept, "implicit", setting), reasons


def abstention_others(
    outdated_labels: list[str], outdated: list[str], noise: Iterable[str], size: int
) -> list[Option] | None:
    """The ``size - 1`` options of an unanswerable item besides "I don't know" (its gold),
    unordered: the first outdated label (an object the data hold for another year), then
    distractors reading as none of the outdated texts; None when there are too few."""
    taken = {normalised(UNKNOWN_OPTION)}
    others: list[Option] = []
    for text in outdated_labels:
        if normalised(text) and normalised(text) not in taken:
            others.append((text, "outdated"))
            taken.add(normalised(text))
            break
    taken |= {normalised(text) for text in outdated}
    for text in noise:
        if len(others) >= size - 1:
            break
        if normalised(text) and normalised(text) not in taken:
            others.append((text, "noise"))
            taken.add(normalised(text))
    return others if len(others) == size - 1 else None


def _unanswerable_pick(setting: TemporalSetting, key: str, pid: str, values: list[str]) -> Picked:
    names, relation = setting.qa.names, setting.catalogue[pid]
    labels, texts = main_texts_of(names, values), texts_of(names, values)
    named_value = next((value for value in values if names.main_text(value) is not None), None)
    classes = [*(names.classes(named_value) if named_value else ())]
    classes += filter(None, [relation.object_class])
    noise = setting.qa.noise.offer(key, relation.pid, classes, values)
    others = abstention_others(labels, texts, noise, setting.qa.options)
    if others is None:
        return "too_few_options"
    return (*_split(others), texts)


UNANSWERABLE_COLUMNS = ("_id", "pid", "group_objects")
UNANSWERABLE_PICKED: dict[str, pl.DataType] = {
    "_others": _TEXTS,
    "_other_types": _TEXTS,
    "outdated_answers": _TEXTS,
}


def unanswerable_records(rows: pl.DataFrame, setting: TemporalSetting) -> Built:
    """Each group asked about ``year``, a year the data cannot answer (past their reach,
    or before the subject existed): the gold is the abstention; and why the rows left out
    are not asked."""
    frame = named(rows, setting)
    frame = frame.with_columns(
        _reason=pl.when(pl.col("subject_label").is_null()).then(pl.lit("unlabelled_subject"))
    )
    pick = partial(_unanswerable_pick, setting)
    kept, reasons = _picked(frame, pick, UNANSWERABLE_COLUMNS, UNANSWERABLE_PICKED)
    qa, label = setting.qa, pl.col("subject_label")
    kept = kept.with_columns(_gold=pl.lit(UNKNOWN_OPTION))
    kept = ordered_options(kept, qa.seed, qa.options, "unknown").with_columns(
        question=rendered(
            kept, setting.catalogue, "question_at", subject=label, year=pl.col("year")
        ),
        answers=pl.lit(ABSTENTIONS, _TEXTS),
        answer_labels=pl.lit(ABSTENTION_LABELS, _TEXTS),
        objects=pl.lit([], _TEXTS),
        object_labels=pl.lit([], _TEXTS),
        outdated=pl.col("group_objects"),
        unanswerable_reason=pl.col("reason"),
        _other_statement=pl.lit(None, pl.String),
    )
    kept = kept.with_columns(mc_question=mc_question(qa.options))
    return records(kept, "unanswerable", setting), reasons
