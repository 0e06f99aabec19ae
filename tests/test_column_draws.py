"""Column-wise seeded draws (kgdiff/export/core/column_draws.py, the options' order of
kgdiff/export/records/option_order.py) and template rendering
(kgdiff/export/relations/columns.py): the digests are seeded.digest's, the order puts each
option at every place equally often (chi-square), the coin is fair, and a template renders as
relation_templates.render does, braces and placeholder-like labels included."""

from __future__ import annotations

import numpy as np
import polars as pl

from kgdiff.export.core.column_draws import coins, digests, first_valid
from kgdiff.export.core.seeded import digest
from kgdiff.export.records.option_order import shown_order
from kgdiff.export.relations.catalogue import shipped_catalogue
from kgdiff.export.relations.columns import rendered
from kgdiff.export.relations.templates import render

CHI2_3DF_999 = 16.27
"""The 99.9th percentile of chi-square with 3 degrees of freedom."""


def _ids(count: int) -> list[str]:
    return [f"temporal/timestamp/Q{n}/P39/Q{n}$x/start" for n in range(count)]


def test_digests_are_the_seeded_digests() -> None:
    ids = ["a", "temporal/implicit/Q1/P6/1990", "ü"]
    assert digests(ids, "7", purpose="options").tolist() == [
        digest("7", key, "options") for key in ids
    ]
    assert digests([], "fixed", purpose="noise").shape == (0,)


def test_the_gold_takes_every_place_equally_often_and_the_coin_is_fair() -> None:
    """The one order of every config's options (records.option_order), its slots numbered by
    place (0 to 3) or by kind without an outdated option (0, 2, 3, 4)."""
    ids = _ids(8000)
    keys = digests(ids, "0", purpose="options")
    for numbering in ([0, 1, 2, 3], [0, 2, 3, 4]):
        shown = _shown(ids, keys, numbering)
        counts = np.bincount(shown.filter(pl.col("slot") == 0).get_column("_pos"), minlength=4)
        chi2 = float(((counts - 2000) ** 2 / 2000).sum())
        assert chi2 < CHI2_3DF_999, (numbering, counts)
        assert shown.get_column("_letter").unique().sort().to_list() == ["A", "B", "C", "D"]
        first = _shown(ids[:50], keys[:50], numbering).get_column("slot")
        reseeded = _shown(ids[:50], digests(ids[:50], "1", purpose="options"), numbering)
        assert (reseeded.get_column("slot") != first).any()
    heads = int(coins(keys).sum())
    assert 3800 <= heads <= 4200


def _shown(ids: list[str], keys: np.ndarray, numbering: list[int]) -> pl.DataFrame:
    """Options in the slots ``numbering`` for every record, in the order shown."""
    options = pl.DataFrame({"_id": ids}).join(pl.DataFrame({"slot": numbering}), how="cross")
    keyed = pl.DataFrame({"_id": ids, "options_digest": pl.Series(keys, dtype=pl.UInt64())})
    return shown_order(options, keyed)


def test_first_valid_takes_the_leftmost_valid_candidates() -> None:
    candidates = np.array([[5, 6, 7, 8], [1, 2, 3, 4]])
    valid = np.array([[False, True, False, True], [False, False, False, True]])
    picked, enough = first_valid(candidates, valid, 2)
    assert picked[0].tolist() == [6, 8] and enough.tolist() == [True, False]


def test_templates_render_as_the_catalogue_renders_them() -> None:
    catalogue = shipped_catalogue()
    pids = catalogue.pids[:5]
    labels = ["Germany", "{year} {subject}", "Brace {{x}}", "Zoë", "A"]
    frame = pl.DataFrame({"pid": pids, "label": labels, "year": [1990, 1, 2000, -44, 7]})
    got = frame.select(
        rendered(frame, catalogue, "question_at", subject=pl.col("label"), year=pl.col("year"))
    ).to_series()
    for pid, label, year, text in zip(pids, labels, frame["year"], got, strict=True):
        assert text == render(catalogue[pid].templates.question_at, subject=label, year=year)
