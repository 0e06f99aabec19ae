"""A ``temporal`` split's records, built column-wise from its rows a chunk at a time:
``--limit``, both true/false labels, the order by id, and frames of at most
``splits.CHUNK`` records (so that an export's memory does not grow with
its largest split)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

import numpy as np
import polars as pl

from kgdiff.export import splits
from kgdiff.export.benchmark_model import BenchmarkRequest
from kgdiff.export.column_draws import digests
from kgdiff.export.temporal_items import Built
from kgdiff.export.temporal_setting import TemporalSetting

Build = Callable[[pl.DataFrame, TemporalSetting], Built]
"""A kind's builder: rows (with their ids, ``_id``) to records and the reasons of the rest."""


def balanced(frame: pl.DataFrame, seed: int) -> pl.DataFrame:
    """The records with both true/false labels occurring (when there are two records or more
    and one can change): if all agree, the first in the seed's order that can be swapped
    states its other truth (``_other_statement``)."""
    labels = frame.get_column("tf_label")
    if frame.height < 2 or labels.null_count() or labels.n_unique() != 1:
        return frame
    swappable = frame.filter(pl.col("_other_statement").is_not_null()).get_column("id")
    if swappable.is_empty():
        return frame
    pick = swappable[int(np.argmin(digests(swappable, str(seed), purpose="limit")))]
    swap = pl.col("id") == pick
    return frame.with_columns(
        tf_statement=pl.when(swap).then("_other_statement").otherwise("tf_statement"),
        tf_label=pl.when(swap).then(~pl.col("tf_label")).otherwise("tf_label"),
        _other_statement=pl.when(swap).then("tf_statement").otherwise("_other_statement"),
    )


def _built(
    rows: pl.DataFrame, build: Build, setting: TemporalSetting, tally: Counter[str]
) -> pl.DataFrame:
    records, reasons = build(rows, setting)
    tally.update(reasons.to_list())
    return records


def _limited(
    rows: pl.DataFrame, build: Build, setting: TemporalSetting, limit: int, tally: Counter[str]
) -> pl.DataFrame:
    """The first ``limit`` records in the seed's order (later rows are not built)."""
    ranks = digests(rows.get_column("_id"), str(setting.seed), purpose="limit")
    rows = rows.with_columns(pl.Series("_rank", ranks)).sort("_rank", "_id").drop("_rank")
    kept: list[pl.DataFrame] = []
    for offset in range(0, max(rows.height, 1), splits.CHUNK):
        kept.append(_built(rows.slice(offset, splits.CHUNK), build, setting, tally))
        if sum(frame.height for frame in kept) >= limit:
            break
    return pl.concat(kept).head(limit)


def split_chunks(
    rows: pl.DataFrame,
    key: pl.Expr,
    build: Build,
    setting: TemporalSetting,
    request: BenchmarkRequest,
    tally: Counter[str],
) -> Iterator[pl.DataFrame]:
    """The records ``build`` makes of ``rows`` (whose ids ``key`` computes), sorted by id,
    in frames of at most ``splits.CHUNK`` (read when called: tests make it small); why a
    row has none is counted in ``tally``. Both true/false labels occur among the first
    frame's records whenever they can."""
    rows = rows.with_columns(key.alias("_id")).sort("_id")
    seed = request.seed
    if request.limit is not None:
        kept = _limited(rows, build, setting, request.limit, tally)
        yield balanced(kept, seed).sort("id").drop("_other_statement")
        return
    for offset in range(0, max(rows.height, 1), splits.CHUNK):
        records = _built(rows.slice(offset, splits.CHUNK), build, setting, tally)
        yield (balanced(records, seed) if offset == 0 else records).drop("_other_statement")
