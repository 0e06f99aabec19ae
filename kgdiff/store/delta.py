"""Snapshots stored as deltas: what a delta holds, its chain of bases, and what it reads.

``kgdiff refresh`` stores a new snapshot as a *delta* of an earlier one, its *base*: the
folder holds the rows of the entities that changed (every table, as an ingest makes them)
and a ``changes`` table listing every id whose rows it replaces or removes (``changed``,
``added``, ``redirected``, ``deleted``). The manifest names the base and the SHA-256 of the
base's manifest (:class:`~kgdiff.store.manifest.DeltaRef`), which records every file of the
base: so a delta reads its base exactly as it was. A base may itself be a delta: a *chain*,
ending at a snapshot stored whole (its *root*).

A delta reads as a whole snapshot: its own rows, then the rows of each snapshot below it
whose subject neither it nor a snapshot between them lists in ``changes``
(``sql/catalog/delta_table_view.sql``; Spark: :mod:`kgdiff.spark.views`). Everything that
reads snapshots through the catalog's views (classify, serve, export) sees whole snapshots.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from kgdiff.store.manifest import Manifest

CHANGES_TABLE = "changes"
CHANGES_SCHEMA = pa.schema(
    [
        pa.field("qid", pa.string(), nullable=False),
        pa.field("change", pa.string(), nullable=False),
    ]
)
CHANGE_KINDS = ("changed", "added", "redirected", "deleted")
"""What happened to an id listed in ``changes``: its rows replaced, new, a redirect now
(a merge), or removed."""
MANIFEST_FILE = "manifest.json"


def manifest_sha256(folder: Path) -> str:
    """The SHA-256 of a snapshot folder's ``manifest.json`` (what a delta pins its base by)."""
    return hashlib.sha256((folder / MANIFEST_FILE).read_bytes()).hexdigest()


def pins(base: Manifest, base_sha256: str, pinned: str) -> bool:
    """Whether the base whose manifest now has ``base_sha256`` is the one a delta pinned as
    ``pinned``: the same manifest, or the one it had before it was compacted."""
    return pinned == base_sha256 or pinned in base.compacted_from


def chain(manifests: Mapping[str, Manifest], name: str) -> list[str]:
    """``name``, its base, the base's base, ... down to the snapshot stored whole (every
    link must be in ``manifests``; a loop or a missing link raises ``KeyError``)."""
    found = [name]
    delta = manifests[name].delta
    while delta is not None:
        if delta.base in found:
            raise KeyError(f"snapshot {name!r}: its chain of bases loops at {delta.base!r}")
        found.append(delta.base)
        delta = manifests[delta.base].delta
    return found


def dependents(manifests: Iterable[Manifest], name: str) -> list[str]:
    """The deltas whose base is ``name``, sorted."""
    return sorted(m.name for m in manifests if m.delta is not None and m.delta.base == name)


@dataclass(frozen=True)
class CarryPlan:
    """What the deltas among some snapshots read from below them, as the lists
    ``sql/catalog/delta_table_view.sql`` takes."""

    carry_deltas: list[str]
    carry_layers: list[str]
    mask_deltas: list[str]
    mask_layers: list[str]
    mask_by: list[str]

    @property
    def layers(self) -> list[str]:
        """The snapshots whose rows some delta reads, sorted."""
        return sorted(set(self.carry_layers))

    @property
    def deltas(self) -> list[str]:
        """The deltas, sorted."""
        return sorted(set(self.carry_deltas))


def carry_plan(manifests: Mapping[str, Manifest], names: Iterable[str]) -> CarryPlan:
    """The plan of the deltas among ``names`` (each chain complete in ``manifests``)."""
    plan = CarryPlan([], [], [], [], [])
    for name in sorted(names):
        links = chain(manifests, name)
        for depth, layer in enumerate(links[1:], start=1):
            plan.carry_deltas.append(name)
            plan.carry_layers.append(layer)
            for above in links[:depth]:
                plan.mask_deltas.append(name)
                plan.mask_layers.append(layer)
                plan.mask_by.append(above)
    return plan
