"""Stream the dump: draw templates in the type mix, rewrite them and write the lines.

The file has the layout of the Wikidata JSON dumps: a first line ``[``, one entity per
line, every entity line but the last ending with ``,``, and a last line ``]``. It is
written to ``NAME.json.tmp`` and renamed when complete.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

from bench.gendump.common import (
    LEXEME_SHARE,
    MEDIAINFO_SHARE,
    MIB,
    PROPERTY_SHARE,
    Entity,
    encode_line,
)
from bench.gendump.ids import IdSpace
from bench.gendump.rewrite import Rewriter
from bench.gendump.stats import Stats, count_entity
from bench.gendump.templates import Pool

ITEM_REF_FILL = 0.9  # item values point into the first 90 % of the estimated item range


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
            count_entity(stats, entity, len(line))
            if written >= next_report:
                _progress(written, target_bytes, start)
                next_report += report_every
        out.write(b"\n]\n")
        written += 3
    tmp.replace(path)
    stats.bytes = written
    stats.seconds = time.perf_counter() - start
    return stats


def _progress(written: int, target: int, start: float) -> None:
    elapsed = time.perf_counter() - start
    print(
        f"  {written / MIB:8.0f} / {target / MIB:.0f} MiB  {elapsed:6.1f} s  "
        f"{written / 1e6 / max(elapsed, 1e-9):5.1f} MB/s",
        file=sys.stderr,
        flush=True,
    )
