"""Write two snapshots of a synthetic store as the dumps a refresh and an ingest read.

From a store made by ``python -m bench.classify_gen`` and two of its snapshots (``base``,
``target``):

- ``base.json``: the base state as a JSON dump (what the benchmark ingests as its base);
- ``target.json``: the target state as a JSON dump (what a full ingest reads);
- ``wikidatawiki-YYYYMMDD-pages-meta-hist-incr.xml``: the target revision of every entity
  whose content changed or that is new, as a daily incremental dump (what ``kgdiff
  refresh`` reads), its time the entity's ``modified`` (at the latest the target's date);
- ``changes.json``: the same revisions as a JSON dump (the other input ``kgdiff refresh``
  takes);
- ``deleted.txt``: the ids the target no longer has (``--deletions``);
- ``refresh_gen.json``: the figures (entities changed, added, deleted, statements).

An entity *changed* when any of its rows but ``lastrevid``, ``modified`` and ``source_line``
differs (the generator draws a new revision for every entity at every snapshot); an
unchanged entity's text is the base's in both dumps. ``share`` keeps only that share of the
changes (chosen by a hash of the id): the target state is then the base with those changes,
for a churn lower than the generator's.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import duckdb
import pyarrow.parquet as pq

from bench.refresh_gen.entity_sql import ENTITY_TEXTS, MACROS
from bench.refresh_gen.xml_dump import Revision, write_revisions
from kgdiff.sqlfiles import quote
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import open_catalog

TABLE_KEYS = {
    "entities": "qid",
    "labels": "qid",
    "sitelinks": "qid",
    "statements": "subject",
    "qualifiers": "subject",
}
NOT_CONTENT = ("snapshot", "source_line", "lastrevid", "modified")
RANGE_ENTITIES = 150_000


@dataclass
class Figures:
    """What the dumps hold."""

    base_entities: int = 0
    target_entities: int = 0
    changed: int = 0
    added: int = 0
    deleted: int = 0
    redirected: int = 0
    changes_statements: int = 0
    target_statements: int = 0
    files: dict[str, int] = field(default_factory=dict)


def _content_hashes(connection: duckdb.DuckDBPyConnection, snapshots: list[str]) -> str:
    """A query: one hash of each entity's content per table and snapshot."""
    parts = []
    for table, key in TABLE_KEYS.items():
        described = connection.execute(f"DESCRIBE SELECT * FROM {table}").fetchall()
        columns = [row[0] for row in described if row[0] not in NOT_CONTENT]
        packed = ", ".join(f'"{name}" := "{name}"' for name in columns)
        names = ", ".join(f"'{name}'" for name in snapshots)
        parts.append(
            f"SELECT snapshot, split_part({key}, '-', 1) AS qid, '{table}' AS tab,"
            f" bit_xor(hash(struct_pack({packed}))) AS h, count(*) AS n FROM {table}"
            f" WHERE snapshot IN ({names}) GROUP BY ALL"
        )
    return " UNION ALL ".join(parts)


def entity_changes(connection: duckdb.DuckDBPyConnection, base: str, target: str) -> dict[str, str]:
    """``changed``, ``added`` or ``deleted`` for every entity whose content differs."""
    hashes = _content_hashes(connection, [base, target])
    rows = connection.execute(
        f"""
        WITH h AS ({hashes}),
        per AS (
            SELECT qid, tab,
                   max(h) FILTER (snapshot = $base) AS hb, max(n) FILTER (snapshot = $base) AS nb,
                   max(h) FILTER (snapshot = $target) AS ht,
                   max(n) FILTER (snapshot = $target) AS nt
            FROM h GROUP BY qid, tab
        )
        SELECT qid,
               bool_or(tab = 'entities' AND nb IS NOT NULL) AS in_base,
               bool_or(tab = 'entities' AND nt IS NOT NULL) AS in_target,
               bool_or(hb IS DISTINCT FROM ht OR nb IS DISTINCT FROM nt) AS differs
        FROM per GROUP BY qid
        """,
        {"base": base, "target": target},
    ).fetchall()
    found = {}
    for qid, in_base, in_target, differs in rows:
        if in_base and in_target and differs:
            found[qid] = "changed"
        elif in_target and not in_base:
            found[qid] = "added"
        elif in_base and not in_target:
            found[qid] = "deleted"
    return found


def chosen(qid: str, share: float) -> bool:
    """Whether the change of ``qid`` is kept at ``share`` (the same ids at every run)."""
    if share >= 1.0:
        return True
    digest = int.from_bytes(hashlib.sha256(qid.encode()).digest()[:4], "big")
    return digest % 1_000_000 < share * 1_000_000


def _ranges(
    connection: duckdb.DuckDBPyConnection, snapshot: str, size: int
) -> list[tuple[str, str]]:
    """Id ranges of at most ~``size`` entities of ``snapshot``, in id order, as ``(lo, hi)``
    ('' open): one query for a whole 10 M-statement snapshot ran out of 4 GB."""
    (entities,) = connection.execute(
        "SELECT count(*) FROM entities WHERE snapshot = $s", {"s": snapshot}
    ).fetchall()[0]
    parts = max(1, -(-entities // size))
    if parts == 1:
        return [("", "")]
    shares = [index / parts for index in range(1, parts)]
    (bounds,) = connection.execute(
        "SELECT quantile_disc(qid, $q) FROM entities WHERE snapshot = $s",
        {"s": snapshot, "q": shares},
    ).fetchall()[0]
    edges = ["", *sorted(set(bounds)), ""]
    return list(itertools.pairwise(edges))


def _in_range(lo: str, hi: str) -> Callable[[re.Match[str]], str]:
    def test(match: re.Match[str]) -> str:
        column = match.group(1)
        tests = [f"{column} >= {quote(lo)}"] if lo else []
        tests += [f"{column} < {quote(hi)}"] if hi else []
        return "(" + " AND ".join(tests or ["TRUE"]) + ")"

    return test


def _write_texts(
    connection: duckdb.DuckDBPyConnection, snapshot: str, folder: Path, size: int
) -> None:
    """Every entity of ``snapshot`` with its JSON text, by id, into Parquet files of
    ``folder`` (one an id range of at most ~``size`` entities, in id order)."""
    for macro in MACROS:
        connection.execute(macro)
    folder.mkdir(parents=True, exist_ok=True)
    for index, (lo, hi) in enumerate(_ranges(connection, snapshot, size)):
        query = re.sub(r"\$in\(([\w.]+)\)", _in_range(lo, hi), ENTITY_TEXTS)
        query = query.replace("$s", quote(snapshot))
        path = quote(str(folder / f"part-{index:05d}.parquet"))
        connection.execute(f"COPY ({query}) TO {path} (FORMAT parquet, COMPRESSION zstd)")


Text = tuple[str, int | None, Any, str | None, str]
"""An entity's id, lastrevid, modified, redirect target and JSON text."""


def _read_texts(folder: Path) -> Iterator[Text]:
    columns = ["qid", "lastrevid", "modified", "redirect_to", "text"]
    for path in sorted(folder.glob("part-*.parquet")):
        for batch in pq.ParquetFile(path).iter_batches(batch_size=20_000, columns=columns):
            yield from zip(*(batch.column(name).to_pylist() for name in columns), strict=True)


def _paired(base: Path, target: Path) -> Iterator[tuple[str, Text | None, Text | None]]:
    """Each id of either file (both by id) with its texts in each."""
    old, new = _read_texts(base), _read_texts(target)
    a, b = next(old, None), next(new, None)
    while a is not None or b is not None:
        if b is None or (a is not None and a[0] < b[0]):
            assert a is not None
            yield a[0], a, None
            a = next(old, None)
        elif a is None or b[0] < a[0]:
            yield b[0], None, b
            b = next(new, None)
        else:
            yield a[0], a, b
            a, b = next(old, None), next(new, None)


class _Dump:
    """A JSON dump written line by line, in the published framing."""

    def __init__(self, handle: IO[bytes]) -> None:
        self.handle = handle
        self.count = 0
        handle.write(b"[\n")

    def add(self, text: bytes) -> None:
        self.handle.write((b",\n" if self.count else b"") + text)
        self.count += 1

    def close(self) -> None:
        self.handle.write(b"\n]\n")


@dataclass(frozen=True)
class Options:
    """How to write the dumps: the share of the changes kept, where the entity texts are
    cached (default ``out``), the entities a text query takes at once, whether to write
    ``base.json`` (a bench store that holds the base already does not read it) and
    ``target.json`` (a refresh does not read it: only the full ingest it is measured against)."""

    share: float = 1.0
    texts: Path | None = None
    range_entities: int = RANGE_ENTITIES
    write_base: bool = True
    write_target: bool = True


def _cached_texts(
    connection: duckdb.DuckDBPyConnection, names: list[str], folder: Path, size: int
) -> dict[str, Path]:
    """The folder of each snapshot's entity texts in ``folder``, written if missing."""
    texts = {name: folder / f".texts-{name}" for name in names}
    for name, done in texts.items():
        if not done.is_dir():
            unfinished = done.with_name(done.name + ".tmp")
            shutil.rmtree(unfinished, ignore_errors=True)
            _write_texts(connection, name, unfinished, size)
            unfinished.rename(done)
    return texts


def generate(
    store: Path, base: str, target: str, out: Path, options: Options | None = None
) -> Figures:
    """Write the dumps of ``base`` and ``target`` (see the module docstring) into ``out``."""
    options = options or Options()
    out.mkdir(parents=True, exist_ok=True)
    connection = open_catalog(StoreLayout.resolve(store))
    connection.execute(f"SET temp_directory = {quote(str(out / '.tmp'))}")
    connection.execute("SET preserve_insertion_order = true")
    connection.execute("SET enable_progress_bar = false")
    connection.execute("SET memory_limit = '4GB'")
    dates = dict(connection.execute("SELECT name, date FROM snapshots").fetchall())
    day, base_day = dates[target], dates[base]
    changes = {
        q: k
        for q, k in entity_changes(connection, base, target).items()
        if chosen(q, options.share)
    }
    counts = {name: _statement_counts(connection, name) for name in (base, target)}
    texts = _cached_texts(connection, [base, target], options.texts or out, options.range_entities)
    connection.close()
    figures = Figures()
    incr = out / f"wikidatawiki-{day:%Y%m%d}-pages-meta-hist-incr.xml"
    last = f"{day.isoformat()}T23:59:59Z"
    with ExitStack() as stack:
        dumps = [
            _Dump(stack.enter_context(path.open("wb")))
            for path in (
                out / "base.json" if options.write_base else Path(os.devnull),
                out / "target.json" if options.write_target else Path(os.devnull),
                out / "changes.json",
            )
        ]
        deleted = stack.enter_context((out / "deleted.txt").open("w"))
        revisions = _merge(
            _paired(texts[base], texts[target]), changes, dumps, deleted, last, figures
        )
        figures.files["incr_pages"] = write_revisions(incr, revisions)
        for dump in dumps:
            dump.close()
    kinds = list(changes.values())
    figures.changed, figures.added, figures.deleted = (
        kinds.count(k) for k in ("changed", "added", "deleted")
    )
    figures.base_entities, figures.target_entities = dumps[0].count, dumps[1].count
    figures.changes_statements = sum(
        counts[target].get(q, 0) for q, k in changes.items() if k != "deleted"
    )
    figures.target_statements = _target_statements(counts[base], counts[target], changes)
    figures.files.update({p.name: p.stat().st_size for p in out.iterdir() if p.is_file()})
    (out / "refresh_gen.json").write_text(
        json.dumps({"store": str(store), "base": base, "target": target,
                    "share": options.share,
                    "date": day.isoformat(), "base_date": base_day.isoformat(),
                    **figures.__dict__}, indent=2) + "\n"
    )  # fmt: skip
    return figures


def _merge(
    pairs: Iterator[tuple[str, Text | None, Text | None]],
    changes: dict[str, str],
    dumps: list[_Dump],
    deleted: IO[str],
    last: str,
    figures: Figures,
) -> Iterator[Revision]:
    """Write both dumps and the deleted ids; yield the revisions of the changes."""
    for qid, old, new in pairs:
        kind = changes.get(qid)
        if old is not None:
            dumps[0].add(old[4].encode())
            if kind is None:
                dumps[1].add(old[4].encode())
        if kind == "deleted":
            deleted.write(qid + "\n")
        elif kind is not None and new is not None:
            text = new[4].encode()
            dumps[1].add(text)
            dumps[2].add(text)
            stamp = min(new[2].strftime("%Y-%m-%dT%H:%M:%SZ"), last) if new[2] else last
            figures.redirected += new[3] is not None
            yield Revision(qid, new[1] or 1, stamp, text)


def _statement_counts(connection: duckdb.DuckDBPyConnection, snapshot: str) -> dict[str, int]:
    rows = connection.execute(
        "SELECT subject, count(*) FROM statements WHERE snapshot = $s GROUP BY ALL", {"s": snapshot}
    ).fetchall()
    return dict(rows)


def _target_statements(
    base: dict[str, int], target: dict[str, int], changes: dict[str, str]
) -> int:
    """Statements of the target state: the base's, each changed entity's replaced."""
    total = sum(base.values())
    for qid, kind in changes.items():
        total += (0 if kind == "deleted" else target.get(qid, 0)) - base.get(qid, 0)
    return total
