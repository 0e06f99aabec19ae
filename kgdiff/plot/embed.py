"""The data behind a picture, kept inside the picture file.

A chart is drawn from a table (a polars frame); the table goes into the file it is drawn to
as JSON text: in an SVG as the RDF description matplotlib writes into ``<metadata>``, in a
PNG as a ``tEXt`` chunk. :func:`read_plot_data` gives it back, so whoever holds the picture
holds the numbers (``kgdiff.plot.read_plot_data("figure.svg").frame``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from kgdiff.errors import UsageError

FORMAT = "kgdiff-plot/1"
"""The name and version of the embedded JSON document."""
PNG_KEY = "kgdiff-plot"
"""The keyword of the PNG ``tEXt`` chunk that holds the document."""
SVG_KEY = "Description"
"""The matplotlib SVG metadata key that holds the document (written as ``dc:description``)."""
PICTURE_SUFFIXES = (".svg", ".png")
"""The picture kinds the plots write."""

_DTYPES: dict[str, pl.DataType] = {
    "String": pl.String(),
    "Int64": pl.Int64(),
    "Float64": pl.Float64(),
    "Boolean": pl.Boolean(),
    "Date": pl.Date(),
    "List(String)": pl.List(pl.String()),
}


@dataclass(frozen=True)
class PlotData:
    """What a picture was drawn from: the chart's name, its parameters, the table, notes."""

    chart: str
    frame: pl.DataFrame
    params: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def encode(data: PlotData) -> str:
    """``data`` as one line of ASCII JSON (dates as ``YYYY-MM-DD``, column types kept)."""
    schema = {}
    for name, dtype in data.frame.schema.items():
        kind = str(dtype)
        if kind not in _DTYPES:
            raise TypeError(f"column {name!r} has type {kind}, which plots do not embed")
        schema[name] = kind
    rows = data.frame.with_columns(pl.col(pl.Date).dt.to_string("%Y-%m-%d")).to_dicts()
    document = {
        "format": FORMAT,
        "chart": data.chart,
        "params": data.params,
        "notes": data.notes,
        "schema": schema,
        "rows": rows,
    }
    return json.dumps(document, ensure_ascii=True, sort_keys=False, separators=(",", ":"))


def decode(text: str) -> PlotData:
    """The :class:`PlotData` of a document :func:`encode` wrote."""
    document = json.loads(text)
    if document.get("format") != FORMAT:
        raise UsageError(f"not a kgdiff plot document (format {document.get('format')!r})")
    schema: dict[str, str] = document["schema"]
    loaded = {
        name: pl.String() if kind == "Date" else _DTYPES[kind] for name, kind in schema.items()
    }
    frame = pl.DataFrame(document["rows"], schema=loaded, orient="row")
    dates = [name for name, kind in schema.items() if kind == "Date"]
    frame = frame.with_columns(pl.col(name).str.to_date("%Y-%m-%d") for name in dates)
    return PlotData(document["chart"], frame, document["params"], document["notes"])


def picture_kind(out: Path) -> str:
    """``svg`` or ``png`` from the name ``out``; a usage error naming any other suffix."""
    suffix = out.suffix.lower()
    if suffix not in PICTURE_SUFFIXES:
        shown = repr(suffix) if suffix else "no suffix"
        raise UsageError(f"--out {out}: {shown} is not a picture kind; use .svg or .png")
    return suffix[1:]


def savefig_metadata(kind: str, data: PlotData, title: str) -> dict[str, str | None]:
    """The ``metadata`` for matplotlib's ``savefig`` that embeds ``data`` (and leaves out the
    creation date, so the same data gives the same bytes)."""
    if kind == "svg":
        return {"Title": title, SVG_KEY: encode(data), "Date": None}
    return {"Title": title, PNG_KEY: encode(data)}


def read_plot_data(path: str | Path) -> PlotData:
    """The table (and chart name, parameters, notes) embedded in a picture ``kgdiff plot``
    wrote, an SVG or a PNG file."""
    path = Path(path)
    kind = picture_kind(path)
    return decode(_svg_text(path) if kind == "svg" else _png_text(path))


def _svg_text(path: Path) -> str:
    from lxml import etree

    parser = etree.XMLParser(huge_tree=True, resolve_entities=False, no_network=True)
    root = etree.parse(str(path), parser).getroot()
    for element in root.iter("{http://purl.org/dc/elements/1.1/}description"):
        if element.text and FORMAT in element.text:
            return str(element.text)
    raise UsageError(f"{path} holds no kgdiff plot data")


def _png_text(path: Path) -> str:
    from PIL import Image

    with Image.open(path) as image:
        text = getattr(image, "text", {}).get(PNG_KEY)
    if text is None:
        raise UsageError(f"{path} holds no kgdiff plot data")
    return str(text)
