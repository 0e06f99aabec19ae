"""What a generation run wrote: counters kept while writing, printed and stored afterwards."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from bench.gendump.common import MIB, Entity
from bench.gendump.templates import Pool


@dataclass
class Stats:
    """What was written."""

    entities: int = 0
    statements: int = 0
    qualifiers: int = 0
    references: int = 0
    sitelinks: int = 0
    bytes: int = 0
    entity_bytes: int = 0
    seconds: float = 0.0
    by_type: dict[str, int] = field(default_factory=dict)

    def mean_entity_size(self) -> float:
        """Mean bytes per entity line (without the ``,\\n`` separator)."""
        return self.entity_bytes / self.entities if self.entities else 0.0


def count_entity(stats: Stats, entity: Entity, size: int) -> None:
    """Count one written entity line of ``size`` bytes."""
    stats.entities += 1
    stats.entity_bytes += size
    stats.by_type[entity["type"]] = stats.by_type.get(entity["type"], 0) + 1
    sitelinks = entity.get("sitelinks")
    if isinstance(sitelinks, dict):
        stats.sitelinks += len(sitelinks)


def summary(stats: Stats) -> dict[str, Any]:
    """The counters as stored in the manifest, with the mean entity size."""
    return asdict(stats) | {"mean_entity_size": round(stats.mean_entity_size(), 1)}


def print_stats(stats: Stats, pool: Pool) -> None:
    """Human-readable summary of a generation run."""
    types = ", ".join(f"{k}={v}" for k, v in sorted(stats.by_type.items()))
    print(f"entities     {stats.entities:,} ({types})")
    print(f"statements   {stats.statements:,} (top level)")
    print(f"qualifiers   {stats.qualifiers:,}; references {stats.references:,}")
    print(f"sitelinks    {stats.sitelinks:,}")
    print(f"bytes        {stats.bytes:,} ({stats.bytes / MIB:,.1f} MiB)")
    mean = stats.mean_entity_size()
    print(f"mean entity  {mean:,.0f} bytes (item size weight exponent {pool.alpha:.3f})")
    rate = stats.bytes / 1e6 / max(stats.seconds, 1e-9)
    print(f"time         {stats.seconds:.1f} s ({rate:.1f} MB/s)")
