"""The real entities the dump is sampled from: read, normalised and weighted into a pool.

Sources are the 2014-12 wikibrain JSON dump plus single canonical entity files, read from a
folder of real samples (``--real-data``; bench/README.md says which files and where the
default folder is). Each is normalised once (:mod:`bench.gendump.modernise`) and kept as a
compact JSON :class:`Template`; items get sampling weights that pull the mean emitted item
line towards ``TARGET_ITEM_MEAN`` bytes.
"""

from __future__ import annotations

import bz2
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from bench.gendump.common import (
    LEXEME_SHARE,
    MEDIAINFO_SHARE,
    PROPERTY_SHARE,
    Entity,
    encode_line,
)
from bench.gendump.modernise import CANONICAL_KEYS, modern_entity

REAL_DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "real"
TEST_DUMP = "wikibrain_wikidata_multi_date/testDump_json_2014-12.json.bz2"
SINGLE_ENTITY_GLOBS = (
    "qwikidata_entity_json/wd_Q42.json",
    "qwikidata_entity_json/wd_P279.json",
    "qwikidata_entity_json/wd_L3354.json",
    "wikibase_datamodel_serialization/items_*.json",
    "wdtk_entity_json/*.json",
)
TARGET_ITEM_MEAN = 12_500  # bytes per item line; sizes are weighted towards it


def read_sources(root: Path) -> list[Entity]:
    """The real canonical entities: every line of the 2014 JSON dump, then single files."""
    entities: list[Entity] = []
    with bz2.open(root / TEST_DUMP, "rb") as fh:
        for raw in fh:
            line = raw.rstrip(b",\r\n")
            if line.startswith(b"{"):
                entities.append(orjson.loads(line))
    for pattern in SINGLE_ENTITY_GLOBS:
        for path in sorted(root.glob(pattern)):
            entities.append(orjson.loads(path.read_bytes()))
    return entities


def property_datatypes(entities: list[Entity]) -> dict[str, str]:
    """Property id → datatype, from the property entities among the sources."""
    return {e["id"]: e["datatype"] for e in entities if e.get("type") == "property"}


@dataclass(frozen=True)
class Template:
    """A normalised real entity, stored as compact JSON and decoded afresh per copy."""

    source_id: str
    type: str
    payload: bytes
    size: int
    title: str | None = None


@dataclass
class Pool:
    """The templates by entity type, with item sampling weights."""

    items: list[Template]
    properties: list[Template]
    lexemes: list[Template]
    mediainfo: list[Template]
    item_weights: list[float] = field(default_factory=list)
    alpha: float = 0.0

    def expected_size(self) -> float:
        """Expected bytes per emitted entity line under the configured type mix."""
        items = _weighted_mean([t.size for t in self.items], self.item_weights)
        others = [
            (PROPERTY_SHARE, self.properties),
            (LEXEME_SHARE, self.lexemes),
            (MEDIAINFO_SHARE, self.mediainfo),
        ]
        rest = 1.0 - sum(share for share, pool in others if pool)
        mean = rest * items
        for share, pool in others:
            if pool:
                mean += share * sum(t.size for t in pool) / len(pool)
        return mean


def _weighted_mean(sizes: list[int], weights: list[float]) -> float:
    return sum(s * w for s, w in zip(sizes, weights, strict=True)) / sum(weights)


def size_weights(sizes: list[int], target: float) -> tuple[float, list[float]]:
    """Weights ``size ** -alpha``, ``alpha`` bisected so the weighted mean size is ``target``."""
    lo, hi = 0.0, 6.0
    for _ in range(60):
        alpha = (lo + hi) / 2
        weights = [s**-alpha for s in sizes]
        if _weighted_mean(sizes, weights) > target:
            lo = alpha
        else:
            hi = alpha
    alpha = (lo + hi) / 2
    return alpha, [s**-alpha for s in sizes]


def build_pool(root: Path) -> Pool:
    """Load, normalise and weight the real entities under ``root``."""
    sources = read_sources(root)
    datatypes = property_datatypes(sources)
    by_type: dict[str, list[Template]] = {t: [] for t in CANONICAL_KEYS}
    properties: dict[str, Template] = {}  # later (newer) versions win
    for source in sources:
        entity = modern_entity(source, datatypes)
        payload = orjson.dumps(entity)
        template = Template(
            entity["id"], entity["type"], payload, _size(entity), source.get("title")
        )
        if template.type == "property":
            properties[template.source_id] = template
        elif template.type in by_type:
            by_type[template.type].append(template)
    pool = Pool(by_type["item"], list(properties.values()), by_type["lexeme"], by_type["mediainfo"])
    pool.alpha, pool.item_weights = size_weights([t.size for t in pool.items], TARGET_ITEM_MEAN)
    return pool


def _size(entity: Entity) -> int:
    """Approximate emitted line size (page metadata adds about 100 bytes)."""
    return len(encode_line(entity)) + 100
