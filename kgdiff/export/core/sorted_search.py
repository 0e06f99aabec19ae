"""Membership in a large sorted set of values by binary search: a config's parts each ask
which of their values are among millions (the export's answers), and ``is_in`` built a hash
set of all of them again for every part."""

from __future__ import annotations

import polars as pl


def among_sorted(values: pl.Series, known: pl.Series) -> pl.Series:
    """Those of ``values`` that are among ``known`` (distinct and sorted as polars sorts
    them), in the order of ``values``."""
    if known.is_empty() or values.is_empty():
        return values.clear()
    at = known.search_sorted(values, side="left").clip(upper_bound=known.len() - 1)
    return values.filter(known.gather(at) == values)
