"""Frames built from Python columns through Arrow: polars builds a Series for every inner
list of a list column it is given as Python lists (~10 to 20 times slower than Arrow, and
the most of an export's time naming its subjects when it did)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl
import pyarrow as pa

_ARROW: dict[object, pa.DataType] = {
    pl.String(): pa.string(),
    pl.Boolean(): pa.bool_(),
    pl.Int64(): pa.int64(),
    pl.Float64(): pa.float64(),
}


def arrow_type(dtype: Any) -> pa.DataType:
    """The Arrow type a column of ``dtype`` (strings, booleans, 64-bit numbers and lists of
    them) is built with."""
    if isinstance(dtype, pl.List):
        return pa.list_(arrow_type(dtype.inner))
    return _ARROW[dtype]


def frame_of(columns: Mapping[str, Sequence[Any]], schema: pl.Schema) -> pl.DataFrame:
    """The frame of ``schema`` whose columns are the Python sequences ``columns`` (one per
    name of the schema, all of one length)."""
    arrays = [pa.array(columns[name], type=arrow_type(dtype)) for name, dtype in schema.items()]
    frame = pl.from_arrow(pa.Table.from_arrays(arrays, names=list(schema)))
    assert isinstance(frame, pl.DataFrame)
    return frame.cast(schema)
