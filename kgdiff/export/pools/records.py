"""The years the ``pools`` config asks about, one per year of a (subject, property) group,
with what the year's record is built from (docs/benchmark-export.md#the-pools-config).

A year's *other-year objects* are the group's objects of its other asked years that are not in
that year's pool: ``earlier_objects`` (the nearest year first, going back) and
``later_objects`` (the nearest first, going forward). Only an earlier object is outdated: its
labels and aliases are the record's ``outdated_answers`` and the multiple-choice item's
outdated option names one. A later object was not yet the value (2014's population is no
outdated answer for 2013): it is neither outdated nor a distractor, and never offered. A group's
distractors are drawn in an order fixed by its id, so its years are offered the same ones
(less any that is an answer of the year, or a person not alive in it:
:mod:`kgdiff.export.distractors.lifespans`); each record's seed orders its own options.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import polars as pl
import pyarrow as pa


def _unseen(pools: Iterable[Sequence[str]], known: set[str]) -> list[str]:
    """The values of ``pools`` not in ``known``, in order, each once."""
    found: list[str] = []
    for pool in pools:
        for value in pool:
            if value not in known:
                known.add(value)
                found.append(value)
    return found


def other_years(pools: Sequence[Sequence[str]], index: int) -> tuple[list[str], list[str]]:
    """The objects of the years before and after ``pools[index]`` that are not in it, the
    nearest year's first (the pools are a group's years in order)."""
    here = set(pools[index])
    earlier = _unseen(reversed(pools[:index]), set(here))
    later = _unseen(pools[index + 1 :], set(here))
    return earlier, later


def sure_first(row: Mapping[str, Any]) -> list[str]:
    """The year's objects, those surely valid in it before those only precision puts there
    (so the correct option is one the qualifiers place in the year)."""
    unsure = set(row["precision_only"])
    objects = list(row["objects"])
    return [v for v in objects if v not in unsure] + [v for v in objects if v in unsure]


def year_rows(groups: pl.DataFrame) -> pl.DataFrame:
    """One row per asked year of each group of ``groups`` (a group per row: ``group_id``,
    ``subject``, ``pid``, ``state``, ``snapshot``, and its years' ``year``, ``objects`` and
    ``precision_only`` as lists, in year order): the record's ``_id``, its ``latest``
    objects (those surely valid first), ``earlier_objects`` and ``later_objects``,
    ``outdated`` and ``offered_outdated`` (the earlier ones alone: a later object is not
    outdated) and ``all_answers`` (every object of the group: none is a distractor)."""
    columns: dict[str, list[Any]] = {name: [] for name in _YEAR_COLUMNS}
    for group in groups.iter_rows(named=True):
        pools = group["objects"]
        every = sorted({value for pool in pools for value in pool})
        for index, year in enumerate(group["year"]):
            row = {name: group[name][index] for name in ("objects", "precision_only")}
            earlier, later = other_years(pools, index)
            found = {
                "_id": f"{group['group_id']}/{year}", "group_id": group["group_id"],
                "year": year, "latest": sure_first(row), "earlier_objects": earlier,
                "later_objects": later, "outdated": earlier,
                "offered_outdated": earlier, "all_answers": every,
                "objects": row["objects"], "precision_only": row["precision_only"],
            }  # fmt: skip
            for name, value in found.items():
                columns[name].append(value)
    arrays = {name: pa.array(values, _YEAR_COLUMNS[name]) for name, values in columns.items()}
    frame = pl.from_arrow(pa.table(arrays))
    assert isinstance(frame, pl.DataFrame)
    shared = groups.select("group_id", "subject", "pid", "state", "change_nature", "snapshot")
    return frame.join(shared, on="group_id", maintain_order="left")


_TEXTS = pa.list_(pa.string())
_YEAR_COLUMNS = {
    "_id": pa.string(), "group_id": pa.string(), "year": pa.int64(), "latest": _TEXTS,
    "earlier_objects": _TEXTS, "later_objects": _TEXTS, "outdated": _TEXTS,
    "offered_outdated": _TEXTS, "all_answers": _TEXTS, "objects": _TEXTS, "precision_only": _TEXTS,
}  # fmt: skip
