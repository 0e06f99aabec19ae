"""Membership by binary search (kgdiff/export/core/sorted_search.py) is ``is_in``'s."""

from __future__ import annotations

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from kgdiff.export.core.sorted_search import among_sorted

TEXTS = st.text(alphabet="QPL0123456789-|é ", max_size=6)


@given(st.lists(TEXTS, max_size=30), st.lists(TEXTS, max_size=30))
def test_the_values_found_are_those_is_in_finds(values: list[str], known: list[str]) -> None:
    asked = pl.Series(values, dtype=pl.String())
    ordered = pl.Series(known, dtype=pl.String()).unique().sort()
    found = among_sorted(asked, ordered)
    assert found.to_list() == asked.filter(asked.is_in(ordered.implode())).to_list()
