"""A relation's templates rendered for a whole frame: each row's template chosen by its
``pid`` (and, for a subject that no longer exists, its past-tense form), its placeholders
filled from columns (:mod:`kgdiff.export.relations.templates`, the same rules: an article
kgdiff added to a name that starts the sentence is capitalised)."""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter

import polars as pl

from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.export.relations.phrasing import AGO, DAY, PLURAL_PHRASE, SPAN
from kgdiff.export.relations.templates import starts_with_name


def _pieces(template: str) -> list[tuple[str, str | None]]:
    """The template as (literal text, placeholder) pairs (braces already unescaped)."""
    return [(text, name) for text, name, _spec, _conv in Formatter().parse(template)]


def sentence_starts(text: pl.Expr) -> pl.Expr:
    """:func:`kgdiff.export.relations.phrasing.sentence_start` of each text."""
    return (
        pl.when(text.str.starts_with("the "))
        .then(pl.concat_str(pl.lit("The"), text.str.slice(3)))
        .otherwise(text)
    )


def possessives(phrase: pl.Expr) -> pl.Expr:
    """:func:`kgdiff.export.relations.phrasing.possessive` of each name as it reads in a
    sentence."""
    plural = phrase.str.contains(f"^(?:{PLURAL_PHRASE.pattern})$") & ~phrase.str.ends_with("ics")
    return pl.concat_str(phrase, pl.when(plural).then(pl.lit("'")).otherwise(pl.lit("'s")))


def date_phrases(text: pl.Expr) -> pl.Expr:
    """:func:`kgdiff.export.relations.phrasing.date_phrase` of each date in words."""
    return (
        pl.when(text.str.contains(f"^{DAY.pattern}"))
        .then(pl.concat_str(pl.lit("on "), text))
        .when(text.str.contains(f"^(?:{SPAN.pattern})$"))
        .then(pl.concat_str(pl.lit("in the "), text))
        .when(text.str.contains(f"^(?:{AGO.pattern})$"))
        .then(text.str.replace(f"^(?:{AGO.pattern})$", "$1 ago"))
        .otherwise(pl.concat_str(pl.lit("in "), text))
    )


def _filled(templates: Mapping[str, str], values: dict[str, pl.Expr]) -> pl.Expr:
    """Each row's template of ``templates`` (by ``pid``) filled from ``values``."""
    pids = sorted(templates)
    pieces = {pid: _pieces(templates[pid]) for pid in pids}
    opening = [pid for pid in pids if starts_with_name(templates[pid])]
    width = max((len(parts) for parts in pieces.values()), default=0)
    columns: list[pl.Expr] = []
    for index in range(width):
        texts, names = [], []
        for pid in pids:
            text, name = pieces[pid][index] if index < len(pieces[pid]) else ("", None)
            texts.append(text)
            names.append(name or "")
        literal = pl.col("pid").replace_strict(pids, texts, return_dtype=pl.String)
        field = pl.col("pid").replace_strict(pids, names, return_dtype=pl.String)
        value = pl.lit("")
        for name, expr in values.items():
            value = pl.when(field == name).then(expr.cast(pl.String)).otherwise(value)
        if index == 0 and opening:
            starts = pl.col("pid").is_in(pl.lit(pl.Series(opening, dtype=pl.String)).implode())
            value = pl.when(starts).then(sentence_starts(value)).otherwise(value)
        columns += [literal, value]
    return pl.concat_str(columns) if columns else pl.lit("")


def rendered(
    frame: pl.DataFrame,
    catalogue: RelationCatalogue,
    kind: str,
    past: pl.Expr | None = None,
    plural: pl.Expr | None = None,
    **values: pl.Expr,
) -> pl.Expr:
    """The template ``kind`` (``question_at``, ``statement_at``…) of each row's relation
    with its placeholders filled from ``values`` (``subject``, ``object``, ``year``, as
    :func:`~kgdiff.export.relations.templates.render` fills them; ``when`` is worked out from
    ``object``, a date in words); where ``past`` is true, the relation's past-tense template
    when it has one; where ``plural`` is true, the template with its verbs agreeing with a
    plural subject (:mod:`kgdiff.export.relations.agreement`)."""
    if "object" in values:
        values["when"] = date_phrases(values["object"].cast(pl.String))
    pids = frame.get_column("pid").unique().sort().to_list()
    forms = {
        (was, many): {pid: catalogue[pid].templates.of(kind, was, many) for pid in pids}
        for was in (False, True)
        for many in (False, True)
    }
    result = _filled(forms[False, False], values)
    # the most specific form is tested first: a row past and plural takes the last one
    for (was, many), fallback in (((False, True), (False, False)), ((True, False), (False, False)),
                                   ((True, True), (True, False))):  # fmt: skip
        condition = _both(past, plural, was, many)
        if condition is not None and forms[was, many] != forms[fallback]:
            result = pl.when(condition).then(_filled(forms[was, many], values)).otherwise(result)
    return result


def _both(past: pl.Expr | None, plural: pl.Expr | None, was: bool, many: bool) -> pl.Expr | None:
    """Where a row takes the past form (``was``) and the plural one (``many``): None when a
    flag it needs was not given."""
    if (was and past is None) or (many and plural is None):
        return None
    flags = [flag for flag, wanted in ((past, was), (plural, many)) if wanted and flag is not None]
    return flags[0] if len(flags) == 1 else flags[0] & flags[1]
