"""The Wikidata JSON dump of a generated snapshot: what ``kgdiff ingest wikidata`` reads.

Each entity of the snapshot becomes one line in the dump's layout (``[``, one entity per
line, ``,``, ``]``), in the canonical JSON serialisation: labels, descriptions and aliases
per language, claims per property with their qualifiers (``qualifiers-order``), one ``P248``
(stated in) reference per counted reference, sitelinks, ``lastrevid`` and ``modified``;
redirects as ``{"type", "id", "redirect"}``. Values are rebuilt from the snapshot's value
keys (docs/data-model.md), so ingesting the dump gives back the snapshot's rows.

DuckDB builds the lines range by range of subjects, within 2 GB, so memory stays bounded
whatever the size: each range holds about :data:`ROWS_PER_RANGE` rows (an entity's label,
description and alias rows, its statements, and one for the entity), not a fixed number of
entities, since entities weigh very differently (a scholarly article has 40–75 descriptions:
40,000 entities at a time ran out of 2 GB at 3 × 25 M). ``pigz`` compresses the stream when
the file ends in ``.gz``. The file is written under a temporary name and renamed.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import duckdb

from kgdiff.sqlfiles import quote
from kgdiff.store.layout import table_files

ROWS_PER_RANGE = 600_000
"""Rows of a range (~13,000 entities of a generated store, ~0.15 GB of JSON)."""
MEMORY_LIMIT = "2GB"
"""DuckDB's limit while it builds a range's lines."""
SQL = Path(__file__).parent / "sql"
TABLES = ("entities", "labels", "sitelinks", "statements", "qualifiers")


def range_sql(files: dict[str, list[str]]) -> str:
    """SQL: the dump lines of the entities with ``$lo <= qid < $hi``, in qid order (the
    macros of ``sql/dump_macros.sql`` defined first)."""
    text = (SQL / "dump_range.sql").read_text()
    for table in TABLES:
        text = text.replace(f"@{table}@", quote(files[table]))
    return text


def define_macros(con: duckdb.DuckDBPyConnection) -> None:
    """The macros the dump lines are built with."""
    for statement in (SQL / "dump_macros.sql").read_text().split(";"):
        if statement.strip() and not all(
            line.startswith("--") for line in statement.strip().splitlines()
        ):
            con.execute(statement)


def _files(snapshot: Path) -> dict[str, list[str]]:
    return {table: [str(path) for path in table_files(snapshot, table)] for table in TABLES}


def ranges(
    con: duckdb.DuckDBPyConnection, files: dict[str, list[str]], rows: int = ROWS_PER_RANGE
) -> list[tuple[str, str]]:
    """[lo, hi) bounds of qids covering every entity, each range holding about ``rows`` rows
    (more only when one entity alone has more)."""
    starts = con.execute(
        f"""WITH weights AS (
                SELECT qid, count(*) AS n FROM read_parquet({quote(files["labels"])}) GROUP BY qid
                UNION ALL
                SELECT subject, count(*) FROM read_parquet({quote(files["statements"])})
                GROUP BY subject
                UNION ALL
                SELECT qid, 1 FROM read_parquet({quote(files["entities"])})),
            per_entity AS (SELECT qid, sum(n) AS n FROM weights GROUP BY qid),
            running AS (
                SELECT qid, sum(n) OVER (ORDER BY qid ROWS UNBOUNDED PRECEDING) - n AS before
                FROM per_entity)
            SELECT min(qid) AS start FROM running GROUP BY before // {int(rows)} ORDER BY start"""
    ).fetchall()
    firsts = [row[0] for row in starts]
    return list(zip(firsts, [*firsts[1:], "\uffff"], strict=True))


def dump_lines(snapshot: Path, spill: Path, threads: int = 2) -> Iterator[bytes]:
    """The entity lines of the snapshot folder ``snapshot``, in qid order (DuckDB spilling
    to ``spill``)."""
    files = _files(snapshot)
    con = duckdb.connect()
    con.execute(f"SET threads = {threads}")
    con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    con.execute(f"SET temp_directory = {quote(str(spill))}")
    con.execute("SET preserve_insertion_order = true")
    con.execute("SET enable_progress_bar = false")
    try:
        define_macros(con)
        sql = range_sql(files)
        for lo, hi in ranges(con, files):
            reader = con.sql(sql, params={"lo": lo, "hi": hi}).to_arrow_reader(50_000)
            for batch in reader:
                yield "\n".join(batch.column(0).to_pylist()).encode()
    finally:
        con.close()


def _opened(path: Path, gzip: bool) -> tuple[IO[bytes], subprocess.Popen[bytes] | None]:
    """The file to write ``path``'s bytes to: itself, or pigz's input with ``gzip``."""
    if not gzip:
        return path.open("wb"), None
    sink = path.open("wb")
    pigz = subprocess.Popen(["pigz", "-p", "2", "-6", "-c"], stdin=subprocess.PIPE, stdout=sink)
    sink.close()
    assert pigz.stdin is not None
    return pigz.stdin, pigz


def write_dump(snapshot: Path, out: Path) -> int:
    """Write the dump of ``snapshot`` to ``out`` (``.json`` or ``.json.gz``); return the
    uncompressed bytes written."""
    tmp = out.with_name(out.name + ".tmp")
    stream, pigz = _opened(tmp, out.suffix == ".gz")
    written = 0
    try:
        stream.write(b"[\n")
        first = True
        for chunk in dump_lines(snapshot, out.parent / ".spill"):
            if not chunk:
                continue
            piece = (b"" if first else b",\n") + chunk.replace(b"\n", b",\n")
            stream.write(piece)
            written += len(piece)
            first = False
        stream.write(b"\n]\n")
    finally:
        stream.close()
        if pigz is not None and pigz.wait() != 0:
            raise SystemExit(f"pigz failed while writing {tmp}")
    tmp.replace(out)
    return written + 5
