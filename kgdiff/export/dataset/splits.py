"""A small split's records, built one by one as items (``updates``, ``multi_hop``), to a
frame: ``--limit``, both true/false labels, the order by id. Large splits are built column
by column, a batch at a time (:mod:`kgdiff.export.dataset.frame_chunks`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import polars as pl

from kgdiff.export.core.arrow_frames import frame_of
from kgdiff.export.core.benchmark_model import BenchmarkRequest
from kgdiff.export.core.seeded import seeded_rank
from kgdiff.export.records.items import QaItem


def balance_truth(items: list[QaItem], seed: int) -> list[QaItem]:
    """The items with both true/false labels occurring (when there are two items or more
    and one can change): if all agree, the first in the seed's order that can be swapped
    takes its other statement."""
    if len(items) < 2 or len({item.record["tf_label"] for item in items}) == 2:
        return items
    swappable = [item for item in items if item.other_statement is not None]
    if not swappable:
        return items
    pick = min(swappable, key=lambda item: seeded_rank(seed, item.record["id"]))
    record = dict(pick.record)
    record["tf_statement"], record["tf_label"] = pick.other_statement, not record["tf_label"]
    swapped = replace(pick, record=record, other_statement=pick.record["tf_statement"])
    return [swapped if item is pick else item for item in items]


def columns_frame(records: list[dict[str, Any]], schema: pl.Schema) -> pl.DataFrame:
    """``records`` as a frame of ``schema``, built column by column through Arrow (polars
    would build a Series for every list of every record: ~10 times slower)."""
    return frame_of({name: [record[name] for record in records] for name in schema}, schema)


def split_frame(
    items: Iterable[QaItem], request: BenchmarkRequest, schema: pl.Schema
) -> pl.DataFrame:
    """A split's records: at most ``--limit`` (the first in the seed's order), both
    true/false labels when they can be, sorted by id, in ``schema``."""
    kept = list(items)
    if request.limit is not None:
        kept.sort(key=lambda item: seeded_rank(request.seed, item.record["id"]))
        kept = kept[: request.limit]
    kept = balance_truth(kept, request.seed)
    return columns_frame(sorted((i.record for i in kept), key=lambda r: r["id"]), schema)
