"""Relation templates rendered column by column: a template (``{subject}``, ``{object}``,
``{year}``, ``{{``/``}}`` for braces: :mod:`kgdiff.export.relation_templates`) becomes a
concatenation of its literal parts and the columns that fill it, evaluated per relation."""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter

import polars as pl

from kgdiff.export.relation_model import RelationCatalogue


def template_expr(template: str, values: Mapping[str, pl.Expr]) -> pl.Expr:
    """The expression that renders ``template`` with ``values`` (an expression per
    placeholder); null where a value it uses is null."""
    parts: list[pl.Expr] = []
    for literal, name, _spec, _conversion in Formatter().parse(template):
        if literal:
            parts.append(pl.lit(literal))
        if name is not None:
            parts.append(values[name].cast(pl.String()))
    return pl.concat_str(parts) if parts else pl.lit("")


def rendered(
    frame: pl.DataFrame,
    catalogue: RelationCatalogue,
    renders: Mapping[str, tuple[str, Mapping[str, pl.Expr]]],
) -> pl.DataFrame:
    """``frame`` (with a ``pid`` column of relations in ``catalogue``) with one column per
    entry of ``renders`` (name → (template kind, e.g. ``question``, and its values)), in the
    frame's order."""
    if not frame.height:
        return frame.with_columns(pl.lit(None, pl.String()).alias(name) for name in renders)
    numbered = frame.with_row_index("_row")
    parts = []
    for (pid,), part in numbered.partition_by("pid", as_dict=True).items():
        templates = catalogue[str(pid)].templates
        parts.append(
            part.with_columns(
                template_expr(getattr(templates, kind), values).alias(name)
                for name, (kind, values) in renders.items()
            )
        )
    return pl.concat(parts).sort("_row").drop("_row")
