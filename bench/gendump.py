"""Generate a synthetic Wikidata JSON dump in the real layout, built from real entities.

Usage::

    .venv/bin/python -m bench.gendump --size-mb 1024 --out /work/bench-data
    .venv/bin/python -m bench.gendump --size-mb 3072 --out /work/bench-data \\
        --name wikidata-20240102-all

The output ``DIR/NAME.json`` has the layout of the Wikidata JSON dumps: a first line
``[``, one entity per line, every entity line but the last ending with ``,``, and a
last line ``]``. ``.json.gz`` (pigz, else gzip level 6) and ``.json.bz2`` (lbzip2,
else the bz2 module) are compressed from it. ``DIR/gendump.json`` records the
parameters and file sizes so a re-run with the same parameters only redoes what is
missing.

Entities are real (the 2014-12 wikibrain JSON dump plus single canonical entities),
normalised once to the current serialisation (every map present, ``datatype`` on
every snak, ``id`` on entity values, hashed qualifiers, 4-digit years, page metadata
at the end), then sampled with a seeded RNG and rewritten so every emitted entity is
unique: new ids, statement GUIDs re-prefixed, item values remapped into the emitted
id range, sitelink titles made unique, and light perturbations (dropped and added
statements, shifted years, changed ranks). Lines are written with ``\\uXXXX`` and
``\\/`` escapes like the real dumps (PHP ``json_encode``).
"""

from __future__ import annotations

import argparse
import bz2
import gzip
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
import uuid
import zlib
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

GENERATOR_VERSION = 1
MIB = 1 << 20
REAL_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "real"
TEST_DUMP = "wikibrain_wikidata_multi_date/testDump_json_2014-12.json.bz2"
SINGLE_ENTITY_GLOBS = (
    "qwikidata_entity_json/wd_Q42.json",
    "qwikidata_entity_json/wd_P279.json",
    "qwikidata_entity_json/wd_L3354.json",
    "wikibase_datamodel_serialization/items_*.json",
    "wdtk_entity_json/*.json",
)

TARGET_ITEM_MEAN = 12_500  # bytes per item line; sizes are weighted towards it
PROPERTY_SHARE = 0.015  # each real property is emitted at most once, with its own P-id
LEXEME_SHARE = 0.006
MEDIAINFO_SHARE = 0.002
ITEM_REF_FILL = 0.9  # item values point into the first 90 % of the estimated item range
DROP_STATEMENT = 0.03
ADD_STATEMENT = 0.05  # per entity
SHIFT_TIME = 0.10  # per time snak (main snaks and qualifiers)
RERANK = 0.01

CANONICAL_KEYS = {
    "item": ("type", "id", "labels", "descriptions", "aliases", "claims", "sitelinks"),
    "property": ("type", "datatype", "id", "labels", "descriptions", "aliases", "claims"),
    "lexeme": ("type", "id", "lemmas", "lexicalCategory", "language", "claims", "forms", "senses"),
    "mediainfo": ("type", "id", "labels", "descriptions", "statements"),
}
MAP_KEYS = {"labels", "descriptions", "aliases", "claims", "sitelinks", "statements", "lemmas"}
META_KEYS = ("pageid", "ns", "title", "lastrevid", "modified")
NAMESPACE = {"item": 0, "property": 120, "lexeme": 146, "mediainfo": 6}
ID_PREFIX = {"item": "Q", "property": "P", "lexeme": "L", "mediainfo": "M"}
VALUE_DATATYPE = {
    "time": "time",
    "quantity": "quantity",
    "globecoordinate": "globe-coordinate",
    "monolingualtext": "monolingualtext",
    "string": "string",
}
TIME_RE = re.compile(r"^([+-])(\d+)(-\d\d-\d\d)(T.*)$")
FIRST_MODIFIED = 1_356_998_400  # 2013-01-01
LAST_MODIFIED = 1_703_980_800  # 2023-12-31
_ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))

Entity = dict[str, Any]


def encode_line(entity: Entity) -> bytes:
    """One dump line, escaped like PHP ``json_encode``: ``\\uXXXX`` for non-ASCII and ``\\/``."""
    return _ENCODER.encode(entity).replace("/", "\\/").encode("ascii")


# --------------------------------------------------------------------------- sources


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


def modern_time(text: str) -> str:
    """``+00000001952-03-11T00:00:00Z`` (2014 dumps) → ``+1952-03-11T00:00:00Z``."""
    match = TIME_RE.match(text)
    if match is None:
        return text
    sign, year, month_day, rest = match.groups()
    return f"{sign}{year.lstrip('0').rjust(4, '0')}{month_day}{rest}"


def snak_hash(snak: Entity) -> str:
    """A 40-hex content hash for a snak (stable, not Wikibase's own algorithm)."""
    body = {k: snak[k] for k in ("snaktype", "property", "datavalue") if k in snak}
    return hashlib.sha1(orjson.dumps(body)).hexdigest()


def _value_datatype(datavalue: Entity | None) -> str | None:
    if not datavalue:
        return None
    if datavalue.get("type") == "wikibase-entityid":
        return f"wikibase-{datavalue['value'].get('entity-type', 'item')}"
    return VALUE_DATATYPE.get(datavalue.get("type", ""))


def modern_snak(snak: Entity, datatypes: dict[str, str], with_hash: bool) -> Entity:
    """A snak in the current key order with ``hash`` (if asked), ``id`` and ``datatype``."""
    datavalue = snak.get("datavalue")
    if datavalue is not None:
        value = datavalue.get("value")
        if datavalue.get("type") == "wikibase-entityid" and "id" not in value:
            prefix = ID_PREFIX.get(value.get("entity-type", "item"), "Q")
            value["id"] = f"{prefix}{value['numeric-id']}"
        elif datavalue.get("type") == "time":
            value["time"] = modern_time(value["time"])
    out: Entity = {"snaktype": snak["snaktype"], "property": snak["property"]}
    if with_hash:
        out["hash"] = snak.get("hash") or snak_hash(snak)
    if datavalue is not None:
        out["datavalue"] = datavalue
    datatype = snak.get("datatype") or datatypes.get(snak["property"])
    datatype = datatype or _value_datatype(datavalue)
    if datatype:
        out["datatype"] = datatype
    return out


def modern_statement(statement: Entity, datatypes: dict[str, str]) -> None:
    """Normalise one statement in place (snaks, qualifier hashes and order, references)."""
    statement["mainsnak"] = modern_snak(statement["mainsnak"], datatypes, with_hash=True)
    statement.setdefault("type", "statement")
    statement.setdefault("rank", "normal")
    qualifiers = statement.get("qualifiers")
    if isinstance(qualifiers, dict) and qualifiers:
        for pid, snaks in qualifiers.items():
            qualifiers[pid] = [modern_snak(s, datatypes, with_hash=True) for s in snaks]
        statement.setdefault("qualifiers-order", list(qualifiers))
    for reference in statement.get("references", ()):
        snaks = reference["snaks"]
        for pid, group in snaks.items():
            snaks[pid] = [modern_snak(s, datatypes, with_hash=False) for s in group]
        reference.setdefault("snaks-order", list(snaks))
        reference.setdefault("hash", hashlib.sha1(orjson.dumps(snaks)).hexdigest())


def statement_lists(entity: Entity) -> list[dict[str, list[Entity]]]:
    """Every statement map of an entity: top level, then lexeme forms and senses."""
    maps = [entity.get("claims"), entity.get("statements")]
    for sub in (*entity.get("forms", ()), *entity.get("senses", ())):
        maps.append(sub.get("claims"))
    return [m for m in maps if isinstance(m, dict)]


def modern_entity(entity: Entity, datatypes: dict[str, str]) -> Entity:
    """The entity in the current serialisation, without page metadata (added on emission)."""
    for groups in statement_lists(entity):
        for statements in groups.values():
            for statement in statements:
                modern_statement(statement, datatypes)
    for sitelink in (entity.get("sitelinks") or {}).values():
        sitelink.pop("url", None)
    keys = CANONICAL_KEYS.get(entity["type"], ("type", "id"))
    out: Entity = {}
    for key in keys:
        if key in entity:
            out[key] = entity[key]
        elif key in MAP_KEYS:
            out[key] = {}
    for key, value in entity.items():
        if key not in out and key not in META_KEYS:
            out[key] = value
    return out


# --------------------------------------------------------------------------- templates


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


# --------------------------------------------------------------------------- rewriting


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


class IdSpace:
    """Allocates new entity ids and maps item values into the emitted item range."""

    def __init__(self, seed: int, item_refs: int) -> None:
        self.seed = seed & 0xFFFFFFFF
        self.item_refs = max(1, item_refs)
        self.next_number = {"item": 1, "lexeme": 1}
        self.next_page = 1000

    def new_page(self) -> int:
        """The next page id."""
        self.next_page += 1
        return self.next_page

    def new_id(self, entity_type: str, page: int) -> str:
        """A fresh id: sequential Q and L numbers; mediainfo ids follow the page id."""
        if entity_type == "mediainfo":
            return f"M{page}"
        number = self.next_number[entity_type]
        self.next_number[entity_type] = number + 1
        return f"{ID_PREFIX[entity_type]}{number}"

    def item_ref(self, qid: str) -> str:
        """The same real QID always maps to the same emitted item (hubs stay hubs)."""
        return f"Q{1 + zlib.crc32(qid.encode(), self.seed) % self.item_refs}"


class Rewriter:
    """Turns a template into a unique, lightly perturbed entity."""

    def __init__(self, rng: random.Random, ids: IdSpace, stats: Stats) -> None:
        self.rng = rng
        self.ids = ids
        self.stats = stats
        self.copies: Counter[str] = Counter()

    def emit(self, template: Template, new_id: str | None = None) -> Entity:
        """A new entity from ``template``; properties keep their id (``new_id=None``)."""
        entity: Entity = orjson.loads(template.payload)
        page = self.ids.new_page()
        new_id = new_id or self.ids.new_id(template.type, page)
        copy = self.copies[template.source_id]
        self.copies[template.source_id] += 1
        entity["id"] = new_id
        self._rewrite_parts(entity, template.source_id, new_id)
        if copy and entity.get("sitelinks"):
            for sitelink in entity["sitelinks"].values():
                sitelink["title"] = f"{sitelink['title']} ({new_id})"
        self._add_meta(entity, page, _copy_title(template.title, copy, page))
        return entity

    def _rewrite_parts(self, entity: Entity, source_id: str, new_id: str) -> None:
        for key in ("claims", "statements"):
            groups = entity.get(key)
            if isinstance(groups, dict):
                self._statements(groups, source_id, new_id, top=True)
                if self.rng.random() < ADD_STATEMENT:
                    self._add_statement(groups, new_id)
        for key in ("lexicalCategory", "language"):
            if isinstance(entity.get(key), str):
                entity[key] = self.ids.item_ref(entity[key])
        for sub in (*entity.get("forms", ()), *entity.get("senses", ())):
            sub["id"] = new_id + sub["id"][len(source_id) :]
            if "grammaticalFeatures" in sub:
                sub["grammaticalFeatures"] = [
                    self.ids.item_ref(q) for q in sub["grammaticalFeatures"]
                ]
            if isinstance(sub.get("claims"), dict):
                self._statements(sub["claims"], source_id, new_id, top=False)

    def _add_meta(self, entity: Entity, page: int, file_title: str | None) -> None:
        kind = entity["type"]
        titles = {"property": "Property:", "lexeme": "Lexeme:", "mediainfo": "File:"}
        title = f"{titles.get(kind, '')}{entity['id']}"
        if kind == "mediainfo" and file_title:
            title = file_title
        when = self.rng.randint(FIRST_MODIFIED, LAST_MODIFIED)
        fraction = (when - FIRST_MODIFIED) / (LAST_MODIFIED - FIRST_MODIFIED)
        entity["pageid"] = page
        entity["ns"] = NAMESPACE.get(kind, 0)
        entity["title"] = title
        entity["lastrevid"] = int(100_000_000 + fraction * 1_950_000_000) + self.rng.randint(0, 999)
        entity["modified"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when))

    def _statements(
        self, groups: dict[str, list[Entity]], source_id: str, new_id: str, *, top: bool
    ) -> None:
        for pid in list(groups):
            kept = []
            for statement in groups[pid]:
                if self.rng.random() < DROP_STATEMENT:
                    continue
                statement["id"] = _reprefix(statement.get("id"), source_id, new_id)
                self._statement(statement)
                kept.append(statement)
            if kept:
                groups[pid] = kept
            else:
                del groups[pid]
            if top:
                self.stats.statements += len(kept)

    def _statement(self, statement: Entity) -> None:
        self._snak(statement["mainsnak"])
        if self.rng.random() < RERANK:
            statement["rank"] = self.rng.choice(("preferred", "deprecated"))
        qualifiers = statement.get("qualifiers")
        if isinstance(qualifiers, dict):
            for snaks in qualifiers.values():
                self.stats.qualifiers += len(snaks)
                for snak in snaks:
                    self._snak(snak)
        for reference in statement.get("references", ()):
            self.stats.references += 1
            for snaks in reference["snaks"].values():
                for snak in snaks:
                    self._retarget(snak)

    def _snak(self, snak: Entity) -> None:
        datavalue = snak.get("datavalue")
        if datavalue is None:
            return
        if datavalue["type"] == "wikibase-entityid":
            self._retarget(snak)
        elif datavalue["type"] == "time" and self.rng.random() < SHIFT_TIME:
            delta = self.rng.choice((-3, -2, -1, 1, 2, 3))
            if shift_year(datavalue["value"], delta) and "hash" in snak:
                snak["hash"] = snak_hash(snak)

    def _retarget(self, snak: Entity) -> None:
        datavalue = snak.get("datavalue")
        if datavalue is None or datavalue["type"] != "wikibase-entityid":
            return
        value = datavalue["value"]
        if value.get("entity-type") == "item":
            qid = self.ids.item_ref(value["id"])
            value["numeric-id"] = int(qid[1:])
            value["id"] = qid

    def _add_statement(self, groups: dict[str, list[Entity]], new_id: str) -> None:
        """Copy an item-valued statement, give it a new GUID and another target."""
        candidates = [
            s
            for group in groups.values()
            for s in group
            if s["mainsnak"].get("datatype") == "wikibase-item" and "datavalue" in s["mainsnak"]
        ]
        if not candidates:
            return
        statement: Entity = orjson.loads(orjson.dumps(self.rng.choice(candidates)))
        for key in ("qualifiers", "qualifiers-order", "references"):
            statement.pop(key, None)
        statement["rank"] = "normal"
        statement["id"] = f"{new_id}${uuid.UUID(int=self.rng.getrandbits(128), version=4)}"
        value = statement["mainsnak"]["datavalue"]["value"]
        number = self.rng.randint(1, self.ids.item_refs)
        value["numeric-id"], value["id"] = number, f"Q{number}"
        statement["mainsnak"]["hash"] = snak_hash(statement["mainsnak"])
        groups[statement["mainsnak"]["property"]].append(statement)
        self.stats.statements += 1


def _reprefix(statement_id: str | None, source_id: str, new_id: str) -> str | None:
    """``Q42$GUID`` → ``Q7$GUID``, ``L3354-S1$GUID`` → ``L9-S1$GUID``, keeping lower case."""
    if not statement_id or "$" not in statement_id:
        return statement_id
    prefix, _, guid = statement_id.partition("$")
    rest = prefix[len(source_id) :] if prefix.upper().startswith(source_id.upper()) else ""
    head = new_id.lower() if prefix[:1].islower() else new_id
    return f"{head}{rest}${guid}"


def _copy_title(title: str | None, copy: int, page: int) -> str | None:
    """A file page title made unique for every copy after the first."""
    if not copy or title is None:
        return title
    stem, dot, ext = title.rpartition(".")
    return f"{stem} ({page}){dot}{ext}" if dot else f"{title} ({page})"


def shift_year(value: Entity, delta: int) -> bool:
    """Shift a CE time value with at least year precision by ``delta`` years."""
    match = TIME_RE.match(value.get("time", ""))
    if match is None or match[1] != "+" or int(value.get("precision", 0)) < 9:
        return False
    year = int(match[2]) + delta
    if not 1 <= year <= 2100:
        return False
    month_day = match[3]
    if month_day == "-02-29" and not (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)):
        month_day = "-02-28"
    value["time"] = f"+{year:04d}{month_day}{match[4]}"
    return True


# --------------------------------------------------------------------------- emission


class Emitter:
    """Draws templates in the configured type mix and rewrites them into new entities."""

    def __init__(self, pool: Pool, seed: int, target_bytes: int, stats: Stats) -> None:
        self.pool = pool
        self.rng = random.Random(seed)
        item_share = 1.0 - PROPERTY_SHARE - LEXEME_SHARE - MEDIAINFO_SHARE
        expected_items = target_bytes / pool.expected_size() * item_share
        self.ids = IdSpace(seed, int(expected_items * ITEM_REF_FILL))
        self.rewriter = Rewriter(self.rng, self.ids, stats)
        self.properties = list(pool.properties)
        self.rng.shuffle(self.properties)
        self.cum_weights: list[float] = []
        total = 0.0
        for weight in pool.item_weights:
            total += weight
            self.cum_weights.append(total)

    def next(self) -> Entity:
        """The next entity of the dump."""
        kind = self._kind(self.rng.random())
        if kind == "property":
            template = self.properties.pop()
            return self.rewriter.emit(template, new_id=template.source_id)
        if kind == "lexeme":
            return self.rewriter.emit(self.rng.choice(self.pool.lexemes))
        if kind == "mediainfo":
            return self.rewriter.emit(self.rng.choice(self.pool.mediainfo))
        item = self.rng.choices(self.pool.items, cum_weights=self.cum_weights)[0]
        return self.rewriter.emit(item)

    def _kind(self, u: float) -> str:
        available = {
            "property": bool(self.properties),
            "lexeme": bool(self.pool.lexemes),
            "mediainfo": bool(self.pool.mediainfo),
        }
        shares = (PROPERTY_SHARE, LEXEME_SHARE, MEDIAINFO_SHARE)
        for kind, share in zip(available, shares, strict=True):
            if u < share:
                return kind if available[kind] else "item"
            u -= share
        return "item"


def write_dump(path: Path, target_bytes: int, pool: Pool, seed: int) -> Stats:
    """Stream entities to ``path`` until it holds at least ``target_bytes``."""
    stats = Stats()
    emitter = Emitter(pool, seed, target_bytes, stats)
    start = time.perf_counter()
    tmp = path.with_name(path.name + ".tmp")
    report_every = max(target_bytes // 10, 1)
    next_report = report_every
    with tmp.open("wb", buffering=4 * MIB) as out:
        out.write(b"[\n")
        written = 2
        while written < target_bytes:
            entity = emitter.next()
            line = encode_line(entity)
            if stats.entities:
                out.write(b",\n")
                written += 2
            out.write(line)
            written += len(line)
            _count(stats, entity, len(line))
            if written >= next_report:
                _progress(written, target_bytes, start)
                next_report += report_every
        out.write(b"\n]\n")
        written += 3
    tmp.replace(path)
    stats.bytes = written
    stats.seconds = time.perf_counter() - start
    return stats


def _count(stats: Stats, entity: Entity, size: int) -> None:
    stats.entities += 1
    stats.entity_bytes += size
    stats.by_type[entity["type"]] = stats.by_type.get(entity["type"], 0) + 1
    sitelinks = entity.get("sitelinks")
    if isinstance(sitelinks, dict):
        stats.sitelinks += len(sitelinks)


def _progress(written: int, target: int, start: float) -> None:
    elapsed = time.perf_counter() - start
    print(
        f"  {written / MIB:8.0f} / {target / MIB:.0f} MiB  {elapsed:6.1f} s  "
        f"{written / 1e6 / max(elapsed, 1e-9):5.1f} MB/s",
        file=sys.stderr,
        flush=True,
    )


# --------------------------------------------------------------------------- compression


def compress(src: Path, fmt: str) -> dict[str, Any]:
    """Write ``src.<fmt>`` (gz, bz2 or zst) next to ``src``; return its manifest record."""
    dst = src.with_name(f"{src.name}.{fmt}")
    tmp = dst.with_name(dst.name + ".tmp")
    threads = str(os.cpu_count() or 1)
    start = time.perf_counter()
    command: list[str] | None = None
    if fmt == "gz" and shutil.which("pigz"):
        command = ["pigz", "-6", "-p", threads, "-c", str(src)]
    elif fmt == "bz2" and shutil.which("lbzip2"):
        command = ["lbzip2", "-9", "-n", threads, "-c", str(src)]
    if command is not None:
        with tmp.open("wb") as out:
            subprocess.run(command, stdout=out, check=True)
        tool = " ".join(command[:-2])
    else:
        tool = _compress_in_process(src, tmp, fmt)
    tmp.replace(dst)
    seconds = time.perf_counter() - start
    return {"bytes": dst.stat().st_size, "seconds": round(seconds, 2), "tool": tool}


def _compress_in_process(src: Path, dst: Path, fmt: str) -> str:
    """Fallback compressors: gzip level 6, bz2 level 9, zstandard level 3 (all threads)."""
    with src.open("rb") as inp:
        if fmt == "zst":
            import zstandard

            compressor = zstandard.ZstdCompressor(level=3, threads=-1)
            with dst.open("wb") as out:
                compressor.copy_stream(inp, out, read_size=MIB, write_size=MIB)
            return "zstandard level 3"
        if fmt == "gz":
            with gzip.open(dst, "wb", compresslevel=6) as out:
                shutil.copyfileobj(inp, out, MIB)
            return "gzip module level 6"
        if fmt == "bz2":
            with bz2.open(dst, "wb", compresslevel=9) as out:
                shutil.copyfileobj(inp, out, MIB)
            return "bz2 module level 9"
    raise ValueError(f"unknown format {fmt!r}")


# --------------------------------------------------------------------------- manifest + CLI

MANIFEST = "gendump.json"


def load_manifest(out_dir: Path) -> dict[str, Any]:
    """The ``gendump.json`` of ``out_dir`` (empty if absent or unreadable)."""
    path = out_dir / MANIFEST
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def save_manifest(out_dir: Path, manifest: dict[str, Any]) -> None:
    """Write ``gendump.json`` atomically."""
    tmp = out_dir / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    tmp.replace(out_dir / MANIFEST)


def _is_current(path: Path, record: dict[str, Any] | None) -> bool:
    return record is not None and path.exists() and path.stat().st_size == record.get("bytes")


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


def make_dump(args: argparse.Namespace) -> dict[str, Any]:
    """Generate (or reuse) ``NAME.json`` and its compressed variants; return the manifest entry."""
    out_dir: Path = args.out
    out_dir.mkdir(parents=True, exist_ok=True)
    params = {"size_mb": args.size_mb, "seed": args.seed, "version": GENERATOR_VERSION}
    manifest = load_manifest(out_dir)
    json_path = out_dir / f"{args.name}.json"
    entry = manifest.get(args.name)
    if (
        entry
        and entry.get("params") == params
        and _is_current(json_path, entry.get("files", {}).get(json_path.name))
    ):
        print(f"reusing {json_path} ({entry['files'][json_path.name]['bytes']:,} bytes)")
    else:
        entry = _generate(json_path, params, args)
        manifest[args.name] = entry
        save_manifest(out_dir, manifest)
    for fmt in (f for f in args.formats if f != "json"):
        dst = out_dir / f"{json_path.name}.{fmt}"
        if _is_current(dst, entry["files"].get(dst.name)):
            print(f"reusing {dst} ({entry['files'][dst.name]['bytes']:,} bytes)")
            continue
        print(f"compressing {dst.name} ...", flush=True)
        record = compress(json_path, fmt)
        print(f"  {record['bytes']:,} bytes in {record['seconds']} s with {record['tool']}")
        entry["files"][dst.name] = record
        save_manifest(out_dir, manifest)
    return dict(entry)


def _generate(json_path: Path, params: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    start = time.perf_counter()
    pool = build_pool(args.real_data)
    print(
        f"templates: {len(pool.items)} items, {len(pool.properties)} properties, "
        f"{len(pool.lexemes)} lexemes, {len(pool.mediainfo)} mediainfo "
        f"({time.perf_counter() - start:.1f} s)"
    )
    stats = write_dump(json_path, int(args.size_mb * MIB), pool, args.seed)
    print_stats(stats, pool)
    record = {"bytes": stats.bytes, "seconds": round(stats.seconds, 2), "tool": "gendump"}
    summary = asdict(stats) | {"mean_entity_size": round(stats.mean_entity_size(), 1)}
    return {"params": params, "files": {json_path.name: record}, "stats": summary}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options."""
    summary = (__doc__ or "").split("\n")[0]
    parser = argparse.ArgumentParser(prog="python -m bench.gendump", description=summary)
    parser.add_argument("--size-mb", type=float, required=True, help="target size in MiB")
    parser.add_argument("--out", type=Path, required=True, help="output directory")
    parser.add_argument("--formats", default="json,gz,bz2", help="json,gz,bz2[,zst]")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--name", default="wikidata-20240101-all", help="dump base name")
    parser.add_argument("--real-data", type=Path, default=REAL_DATA, help="shared real samples")
    args = parser.parse_args(argv)
    args.formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    unknown = set(args.formats) - {"json", "gz", "bz2", "zst"}
    if unknown or args.size_mb <= 0:
        parser.error(f"bad --formats {sorted(unknown)} or --size-mb {args.size_mb}")
    return args


def main(argv: list[str] | None = None) -> int:
    """Entry point."""
    args = parse_args(argv)
    start = time.perf_counter()
    entry = make_dump(args)
    for name, record in sorted(entry["files"].items()):
        print(f"{args.out / name}  {record['bytes']:,} bytes")
    print(f"total {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
