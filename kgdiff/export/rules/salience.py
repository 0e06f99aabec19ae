"""Which subjects an export asks about (docs/benchmark-export.md#what-is-left-out): those with
a label in the export's language, popular enough (``--min-sitelinks``, and with page views in
the store ``--min-pageviews``, as EvoWiki and AntiLeakBench keep popular subjects), not of
a class their relation is not asked of (the catalogue's ``not_asked_of``: P17 "country" of a
country), a place when their relation asks only of places (``places_only``: "Which country is
… in?" of a city, not of a band), and whose label names them first: another item of the
store with the same label and at least as many sitelinks makes it ambiguous ("Alexandria" of
Alexandria, Virginia, beside Alexandria, Egypt).

Every config checks its records' subjects by the same rules, in this order, and counts the
first that fails: ``unlabelled_subject``, ``below_min_sitelinks``, ``below_min_pageviews``,
``subject_class_not_asked``, ``subject_not_a_place``, ``ambiguous_subject_label``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import polars as pl

from kgdiff.errors import UsageError
from kgdiff.export.core.arrow_frames import frame_of
from kgdiff.export.core.benchmark_model import DEFAULT_MIN_SITELINKS, BenchmarkRequest
from kgdiff.export.relations.agreement import plural_subject
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.rules.subject_echo import subject_needles
from kgdiff.export.words.names import Names
from kgdiff.pageviews.store import table_files
from kgdiff.store.layout import StoreLayout

UNLABELLED = "unlabelled_subject"
FEW_SITELINKS = "below_min_sitelinks"
FEW_PAGEVIEWS = "below_min_pageviews"
CLASS_NOT_ASKED = "subject_class_not_asked"
NOT_A_PLACE = "subject_not_a_place"
AMBIGUOUS = "ambiguous_subject_label"
SUBJECT_REASONS = (
    UNLABELLED,
    FEW_SITELINKS,
    FEW_PAGEVIEWS,
    CLASS_NOT_ASKED,
    NOT_A_PLACE,
    AMBIGUOUS,
)
"""Why a record's subject is not asked about, in the order they are checked."""
_TEXTS = pl.List(pl.String())
SUBJECT_SCHEMA = pl.Schema(
    {
        "subject": pl.String(),
        "subject_label": pl.String(),
        "subject_phrase": pl.String(),
        "subject_plural": pl.Boolean(),
        "subject_ended": pl.Boolean(),
        "sitelinks": pl.Int64(),
        "subject_classes": _TEXTS,
        "subject_located": pl.Boolean(),
        "subject_outranked": pl.Boolean(),
        "popularity": pl.Float64(),
        "subject_needles": _TEXTS,
    }
)
"""What the rules read of a subject: its label (null when it has none in the language, or
only its id), how it reads in a sentence ("the Netherlands", null without a label), whether it
takes a plural verb ("the Pennine Alps": :mod:`kgdiff.export.relations.agreement`), whether it
no longer exists (:mod:`kgdiff.export.rules.subject_state`: asked in the past tense), its sitelinks
and classes (P31, then P279) in the snapshot its label comes from, whether that snapshot
gives it coordinates and whether another item there has its label with at least as many
sitelinks (:class:`~kgdiff.export.words.names.Name`), its popularity (``ln(median monthly views +
1)``, null without page views), and the words of its label and aliases a gold label must not
hold (:func:`~kgdiff.export.rules.subject_echo.subject_needles`)."""


@dataclass(frozen=True)
class Salience:
    """The popularity a subject needs: at least ``min_sitelinks`` sitelinks and, when set,
    a median of at least ``min_pageviews`` monthly views of its article."""

    min_sitelinks: int = DEFAULT_MIN_SITELINKS
    min_pageviews: int | None = None

    @classmethod
    def of(cls, request: BenchmarkRequest) -> Salience:
        """The request's ``--min-sitelinks`` and ``--min-pageviews``."""
        return cls(request.min_sitelinks, request.min_pageviews)

    def filters(self) -> dict[str, int | None]:
        """The filters, as ``kgdiff_build.json`` and the card name them."""
        return {"min_sitelinks": self.min_sitelinks, "min_pageviews": self.min_pageviews}

    def popularity_floor(self) -> float | None:
        """The least popularity that passes ``min_pageviews`` (None: no floor)."""
        return None if self.min_pageviews is None else math.log(self.min_pageviews + 1)


def check_salience(salience: Salience, layout: StoreLayout) -> None:
    """A usage error, before any work, for a negative threshold or for ``--min-pageviews``
    on a store without page views."""
    if salience.min_sitelinks < 0:
        raise UsageError(
            f"--min-sitelinks {salience.min_sitelinks}: give a number of sitelinks, 0 or more"
        )
    if salience.min_pageviews is None:
        return
    if salience.min_pageviews < 0:
        raise UsageError(
            f"--min-pageviews {salience.min_pageviews}: give a number of monthly views, 0 or more"
        )
    if not table_files(layout):
        raise UsageError(
            f"--min-pageviews {salience.min_pageviews}: the store has no page views; ingest"
            " some (kgdiff ingest pageviews, docs/ingest.md#page-views) or leave the option out"
        )


ENTITY_COLUMNS = tuple(
    name for name in SUBJECT_SCHEMA if name not in ("subject_ended", "popularity")
)
"""The columns of :data:`SUBJECT_SCHEMA` the names give (:func:`entity_facts`)."""
ENTITY_SCHEMA = pl.Schema({name: SUBJECT_SCHEMA[name] for name in ENTITY_COLUMNS})
"""The frame :func:`entity_facts` makes."""


def entity_facts(names: Names, ids: Iterable[str]) -> pl.DataFrame:
    """One row per distinct id of ``ids``: the :data:`ENTITY_COLUMNS` of its name."""
    distinct = sorted(set(ids))
    labels = [names.label(subject) for subject in distinct]
    kept = [
        label if label not in (None, "", subject) else None
        for subject, label in zip(distinct, labels, strict=True)
    ]
    phrases = [
        names.phrase(subject) if label is not None else None
        for subject, label in zip(distinct, kept, strict=True)
    ]
    columns: dict[str, Sequence[object]] = {
        "subject": distinct,
        "subject_label": kept,
        "subject_phrase": phrases,
        "subject_plural": [
            plural_subject(phrase, names.classes(subject))
            for subject, phrase in zip(distinct, phrases, strict=True)
        ],
        "sitelinks": [names.sitelinks(subject) or 0 for subject in distinct],
        "subject_classes": [list(names.classes(subject)) for subject in distinct],
        "subject_located": [names.located(subject) for subject in distinct],
        "subject_outranked": [names.outranked(subject) for subject in distinct],
        "subject_needles": [
            subject_needles(names.texts(subject)) if label is not None else []
            for subject, label in zip(distinct, kept, strict=True)
        ],
    }
    return frame_of(columns, ENTITY_SCHEMA)


def with_standing(
    entities: pl.DataFrame, popularity: Mapping[str, float], ended: frozenset[str] = frozenset()
) -> pl.DataFrame:
    """:data:`SUBJECT_SCHEMA` of the rows of :func:`entity_facts`: with whether each
    subject no longer exists (in ``ended``) and its ``popularity``."""
    known = pl.DataFrame(
        {"subject": list(popularity), "popularity": list(popularity.values())},
        schema={"subject": pl.String(), "popularity": pl.Float64()},
    )
    found = entities.join(known, on="subject", how="left", maintain_order="left")
    ended_now = pl.col("subject").is_in(pl.Series(sorted(ended), dtype=pl.String()).implode())
    return found.with_columns(ended_now.alias("subject_ended")).select(SUBJECT_SCHEMA.names())


def subject_facts(
    names: Names,
    subjects: Iterable[str],
    popularity: Mapping[str, float],
    ended: frozenset[str] = frozenset(),
) -> pl.DataFrame:
    """One row per distinct subject of ``subjects`` (:data:`SUBJECT_SCHEMA`); ``ended``, the
    subjects no longer in existence."""
    return with_standing(entity_facts(names, subjects), popularity, ended)


def _not_asked(catalogue: RelationCatalogue) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "pid": [relation.pid for relation in catalogue],
            "_not_asked_of": [list(relation.not_asked_of) for relation in catalogue],
            "_places_only": [relation.places_only for relation in catalogue],
        },
        schema={"pid": pl.String(), "_not_asked_of": _TEXTS, "_places_only": pl.Boolean()},
    )


def subject_reason(salience: Salience) -> pl.Expr:
    """Why a row (with the columns of :data:`SUBJECT_SCHEMA`, ``_not_asked_of`` and
    ``_places_only``) is not asked about: the first rule of :data:`SUBJECT_REASONS` it fails,
    or null."""
    floor = salience.popularity_floor()
    popular = pl.lit(True) if floor is None else (pl.col("popularity") >= floor).fill_null(False)
    not_asked = pl.col("subject_classes").list.set_intersection(pl.col("_not_asked_of"))
    return (
        pl.when(pl.col("subject_label").is_null())
        .then(pl.lit(UNLABELLED))
        .when(pl.col("sitelinks").fill_null(0) < salience.min_sitelinks)
        .then(pl.lit(FEW_SITELINKS))
        .when(~popular)
        .then(pl.lit(FEW_PAGEVIEWS))
        .when(not_asked.list.len() > 0)
        .then(pl.lit(CLASS_NOT_ASKED))
        .when(pl.col("_places_only") & ~pl.col("subject_located"))
        .then(pl.lit(NOT_A_PLACE))
        .when(pl.col("subject_outranked"))
        .then(pl.lit(AMBIGUOUS))
    )


REASON_COLUMNS = (
    "subject", "subject_label", "sitelinks", "popularity", "subject_classes", "subject_located",
    "subject_outranked",
)  # fmt: skip
"""The columns of :data:`SUBJECT_SCHEMA` that :func:`subject_reason` reads."""


def pair_reasons(
    pairs: pl.DataFrame, facts: pl.DataFrame, salience: Salience, catalogue: RelationCatalogue
) -> pl.DataFrame:
    """Each distinct (``subject``, ``pid``) of ``pairs`` with ``_subject_reason``
    (:func:`subject_reason`): the reason depends on the subject and the relation alone, so it
    is worked out once per pair, from the facts' columns it reads (a group's years, a group's
    statements would repeat them)."""
    slim = facts.select([name for name in REASON_COLUMNS if name in facts.columns])
    joined = pairs.select("subject", "pid").unique(maintain_order=True)
    joined = joined.join(slim, on="subject", how="left", maintain_order="left")
    joined = joined.join(_not_asked(catalogue), on="pid", how="left", maintain_order="left")
    joined = joined.with_columns(
        pl.col("_not_asked_of").fill_null(pl.lit([], _TEXTS)),
        pl.col("subject_classes").fill_null(pl.lit([], _TEXTS)),
        pl.col("_places_only", "subject_located", "subject_outranked").fill_null(False),
    )
    return joined.select("subject", "pid", subject_reason(salience).alias("_subject_reason"))


def _with_facts(rows: pl.DataFrame, facts: pl.DataFrame, drop: Sequence[str]) -> pl.DataFrame:
    """``rows`` with the columns of ``facts`` a record keeps (not those only the reason
    reads, nor ``drop``), in their order."""
    marks = ("subject_classes", "sitelinks", "subject_located", "subject_outranked")
    kept = [name for name in facts.columns if name not in (*marks, *drop)]
    return rows.join(facts.select(kept), on="subject", how="left", maintain_order="left")


def _joined_reasons(rows: pl.DataFrame, reasons: pl.DataFrame) -> pl.DataFrame:
    """``rows`` with the ``_subject_reason`` of their pair (a row without a subject is
    unlabelled, as its pair's null is)."""
    return rows.join(
        reasons, on=["subject", "pid"], how="left", nulls_equal=True, maintain_order="left"
    )


def with_subject_reason(
    rows: pl.DataFrame,
    facts: pl.DataFrame,
    salience: Salience,
    catalogue: RelationCatalogue,
    drop: Sequence[str] = (),
) -> pl.DataFrame:
    """``rows`` (``subject``, ``pid``) with the columns of :data:`SUBJECT_SCHEMA` (less
    ``drop``) and ``_subject_reason`` (:func:`subject_reason`), in their order."""
    reasons = pair_reasons(rows, facts, salience, catalogue)
    joined = _with_facts(rows, facts, drop)
    return _joined_reasons(joined, reasons)


def asked_subjects(
    rows: pl.DataFrame,
    facts: pl.DataFrame,
    salience: Salience,
    catalogue: RelationCatalogue,
    tally: dict[str, int],
    drop: Sequence[str] = (),
) -> pl.DataFrame:
    """The rows of ``rows`` whose subject is asked about, with its label and popularity
    (less ``drop``); the others counted per reason in ``tally``. The facts a record reads are
    joined to the rows kept alone."""
    reasons = pair_reasons(rows, facts, salience, catalogue)
    reasoned = _joined_reasons(rows, reasons)
    counted = reasoned.drop_nulls("_subject_reason").group_by("_subject_reason").len()
    for reason, count in counted.iter_rows():
        tally[reason] = tally.get(reason, 0) + count
    kept = reasoned.filter(pl.col("_subject_reason").is_null()).drop("_subject_reason")
    return _with_facts(kept, facts, drop)


def subject_reason_of(
    pid: str,
    subject: str,
    label: str | None,
    names: Names,
    popularity: float | None,
    salience: Salience,
    catalogue: RelationCatalogue,
) -> str | None:
    """:func:`subject_reason` of one record (built one by one: ``multi_hop``)."""
    floor = salience.popularity_floor()
    if not label:
        return UNLABELLED
    if (names.sitelinks(subject) or 0) < salience.min_sitelinks:
        return FEW_SITELINKS
    if floor is not None and (popularity is None or popularity < floor):
        return FEW_PAGEVIEWS
    reason = relation_reason(pid, subject, names, catalogue)
    if reason is not None:
        return reason
    return AMBIGUOUS if names.outranked(subject) else None


def relation_reason(
    pid: str, subject: str, names: Names, catalogue: RelationCatalogue
) -> str | None:
    """Why the relation ``pid`` is not asked of ``subject`` (a chain checks each hop's
    subject): a class it is not asked of, or not a place when it asks only of places."""
    relation = catalogue.get(pid)
    if relation is None:
        return None
    if set(names.classes(subject)) & set(relation.not_asked_of):
        return CLASS_NOT_ASKED
    if relation.places_only and not names.located(subject):
        return NOT_A_PLACE
    return None
