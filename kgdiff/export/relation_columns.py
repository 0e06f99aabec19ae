"""A relation's templates rendered for a whole frame: each row's template chosen by its
``pid``, its placeholders filled from columns (:mod:`kgdiff.export.relation_templates`)."""

from __future__ import annotations

from string import Formatter

import polars as pl

from kgdiff.export.relation_model import RelationCatalogue


def _pieces(template: str) -> list[tuple[str, str | None]]:
    """The template as (literal text, placeholder) pairs (braces already unescaped)."""
    return [(text, name) for text, name, _spec, _conv in Formatter().parse(template)]


def rendered(
    frame: pl.DataFrame, catalogue: RelationCatalogue, kind: str, **values: pl.Expr
) -> pl.Expr:
    """The template ``kind`` (``question_at``, ``statement_at``…) of each row's relation
    with its placeholders filled from ``values`` (``subject``, ``object``, ``year``, as
    :func:`~kgdiff.export.relation_templates.render` fills them)."""
    pids = frame.get_column("pid").unique().sort().to_list()
    pieces = {pid: _pieces(getattr(catalogue[pid].templates, kind)) for pid in pids}
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
        columns += [literal, value]
    return pl.concat_str(columns) if columns else pl.lit("")
