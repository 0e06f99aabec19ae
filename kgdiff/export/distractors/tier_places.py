"""The distractor tiers' rows found by position instead of by joins
(:class:`~kgdiff.export.distractors.noise_tiers.NoiseTiers`, drawn from by
:mod:`kgdiff.export.distractors.noise_frames`).

Every round of draws looked up the candidate at each place drawn by joining the places with
every tier's members, and each batch's taken texts by joining them with every candidate's
aliases. A join builds a hash table over the tiers' side, whose size grows with the store: at
3 × 200 M statements (16.6 M places in 640,665 tiers, 7.9 M aliases) each round's join raised
the process's memory by ~0.7 GB (a probe: 250,000 places against 16.6 M members, 0.3–0.7 s),
which made the ``qa`` records the export's peak. The members are kept in tier order with each
tier's places numbered from 0 and the candidates and aliases sorted, so a place is an offset
and a candidate or a text a binary search.
"""

from __future__ import annotations

import polars as pl


def tier_starts(sizes: pl.DataFrame) -> pl.Series:
    """Where each tier's places begin among the members (``sizes``: ``tier`` numbered from 0
    in order, ``n``), by tier number."""
    counts = sizes.sort("tier").get_column("n").cast(pl.UInt64())
    return (counts.cum_sum() - counts).rename("start")


def drawn_candidates(
    drawn: pl.DataFrame, starts: pl.Series, members: pl.DataFrame, candidates: pl.DataFrame
) -> pl.DataFrame:
    """``drawn`` (with ``tier`` and ``index``, a place in it) with the candidate there and its
    row of ``candidates`` (sorted by ``cand``), in ``drawn``'s order; a place whose candidate
    has no row is left out, as an inner join would."""
    if not drawn.height or not candidates.height:
        empty = drawn.clear().with_columns(pl.lit(None, pl.UInt32()).alias("cand"))
        return pl.concat([empty, candidates.clear().drop("cand")], how="horizontal")
    places = starts.gather(drawn.get_column("tier")) + drawn.get_column("index")
    cand = members.get_column("cand").gather(places)
    numbers = candidates.get_column("cand")
    rows = numbers.search_sorted(cand, side="left").clip(upper_bound=candidates.height - 1)
    found = numbers.gather(rows) == cand
    picked = candidates.select(pl.all().gather(rows))
    return pl.concat([drawn, picked], how="horizontal").filter(found)


def sorted_aliases(aliases: pl.DataFrame) -> pl.DataFrame:
    """``aliases`` (``cand``, ``form``) in the order :func:`alias_clashes` searches."""
    return aliases.sort("form", "cand")


def alias_clashes(taken: pl.DataFrame, aliases: pl.DataFrame) -> pl.DataFrame:
    """(``_id``, ``cand``), distinct: the candidates one of whose ``aliases`` (sorted by
    :func:`sorted_aliases`) reads as a form a request has ``taken`` (``_id``, ``form``)."""
    asked = taken.drop_nulls("form")
    forms = aliases.get_column("form")
    first = forms.search_sorted(asked.get_column("form"), side="left")
    last = forms.search_sorted(asked.get_column("form"), side="right")
    spans = asked.select("_id").with_columns(first.alias("_first"), last.alias("_last"))
    spans = spans.filter(pl.col("_last") > pl.col("_first"))
    rows = spans.select("_id", pl.int_ranges("_first", "_last").alias("_at")).explode("_at")
    cands = aliases.get_column("cand").gather(rows.get_column("_at"))
    return rows.select("_id").with_columns(cands.alias("cand")).unique()
