"""A synthetic English Wikipedia for a generated store: what ``kgdiff evidence build`` searches.

One article per entity with an ``enwiki`` sitelink in the latest snapshot (the generator
gives ~6 % of the items one, as real Wikidata: bench/README.md), titled by the sitelink.
Its lead names the entity and states up to :data:`FACTS_PER_LEAD` of its item-valued facts
with the object's English label (``Its P106 is human 12.``), so each such fact has a
sentence the evidence can find; the body is filler prose of a heavy-tailed length (stubs
and long articles, ~4 KB of wikitext on average, as enwiki's ~670 words an article). Some
facts are stated again in the body. Written as a MediaWiki XML export (one revision a
page, dated before the snapshot's date), gzip-compressed by ``pigz``, under a temporary
name and renamed.
"""

from __future__ import annotations

import itertools
import subprocess
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from xml.sax.saxutils import escape

import duckdb

from kgdiff.sqlfiles import quote
from kgdiff.store.layout import table_files

FACTS_PER_LEAD = 8
MEMORY_LIMIT = "3GB"
PAGES_PER_BATCH = 5_000
FILLER = (
    "The subject has been described in several published sources.",
    "Early accounts differ on the details, and later work revised them.",
    "Records from the period are incomplete, so some dates remain uncertain.",
    "It is mentioned in regional histories and in a number of catalogues.",
    "Further material is held in archives that have not been fully indexed.",
    "Several names have been used for it over time, in different languages.",
    "Its classification was discussed at length before a consensus emerged.",
    "Later surveys added measurements and corrected earlier estimates.",
)
NAMESPACE = "http://www.mediawiki.org/xml/export-0.10/"
HEADER = f"""<mediawiki xmlns="{NAMESPACE}" version="0.10" xml:lang="en">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <dbname>enwiki</dbname>
    <base>https://en.wikipedia.org/wiki/Main_Page</base>
    <generator>bench.scale</generator>
    <case>first-letter</case>
    <namespaces>
      <namespace key="0" case="first-letter" />
    </namespaces>
  </siteinfo>
"""
PAGE = """  <page>
    <title>{title}</title>
    <ns>0</ns>
    <id>{page_id}</id>
    <revision>
      <id>{revision_id}</id>
      <timestamp>{timestamp}</timestamp>
      <contributor><username>Synthetic</username><id>1</id></contributor>
      <model>wikitext</model>
      <format>text/x-wiki</format>
      <text bytes="{size}" xml:space="preserve">{text}</text>
    </revision>
  </page>
"""


def pages_sql(files: dict[str, list[str]]) -> str:
    """SQL: one row per article (page id, title, days before the snapshot, its lead's
    sentences, the number of filler paragraphs and a seed), in page order."""

    def read(table: str) -> str:
        return f"read_parquet({quote(files[table])})"

    return f"""
WITH
pages AS (
    SELECT qid, title, row_number() OVER (ORDER BY qid) AS page_id
    FROM {read("sitelinks")} WHERE site = 'enwiki'
),
facts AS (
    SELECT s.subject, s.pid, s.object_qid,
           row_number() OVER (PARTITION BY s.subject ORDER BY hash(s.statement_id)) AS k
    FROM {read("statements")} AS s SEMI JOIN pages ON pages.qid = s.subject
    WHERE s.object_qid IS NOT NULL AND s.rank <> 'deprecated' AND s.object_qid <> s.subject
),
named AS (
    SELECT f.subject, f.pid, f.k, l.value AS name
    FROM facts AS f
    JOIN {read("labels")} AS l ON l.qid = f.object_qid AND l.kind = 'label' AND l.lang = 'en'
    WHERE f.k <= {FACTS_PER_LEAD}
),
leads AS (
    SELECT subject, list('Its ' || pid || ' is ' || name || '.' ORDER BY k) AS sentences
    FROM named GROUP BY subject
)
SELECT p.page_id, p.title, CAST(hash(p.qid) % 365 AS INTEGER) AS days_before,
       coalesce(leads.sentences, []) AS sentences,
       CAST(least(120, floor(4 * pow(1.0 - hash(p.qid, 1) / 18446744073709551616.0, -1.0 / 1.6)))
            AS INTEGER) AS paragraphs,
       CAST(hash(p.qid, 2) % 1000003 AS BIGINT) AS seed
FROM pages AS p LEFT JOIN leads ON leads.subject = p.qid
ORDER BY p.page_id"""


def article(title: str, sentences: list[str], paragraphs: int, seed: int) -> str:
    """The wikitext of one article: its lead (the facts), then filler paragraphs, some of
    which state a fact again."""
    lead = f"'''{title}''' is an entity of the synthetic knowledge graph. " + " ".join(sentences)
    parts = [lead]
    for index in range(paragraphs):
        start = (seed + index) % len(FILLER)
        body = [FILLER[(start + j) % len(FILLER)] for j in range(5)]
        if sentences and index % 3 == 2:
            body.insert(2, sentences[(seed + index) % len(sentences)])
        heading = f"== Section {index + 1} ==\n" if index % 2 == 0 else ""
        parts.append(heading + " ".join(body))
    return "\n\n".join(parts)


def _files(snapshot: Path) -> dict[str, list[str]]:
    tables = ("statements", "labels", "sitelinks")
    return {table: [str(path) for path in table_files(snapshot, table)] for table in tables}


def page_xml(snapshot: Path, day: date, spill: Path, threads: int = 2) -> Iterator[str]:
    """The ``<page>`` elements of the articles of ``snapshot``, dated before ``day`` (DuckDB
    held to :data:`MEMORY_LIMIT`, spilling to ``spill``)."""
    con = duckdb.connect()
    con.execute(f"SET threads = {threads}")
    con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    con.execute(f"SET temp_directory = {quote(str(spill))}")
    con.execute("SET enable_progress_bar = false")
    try:
        reader = con.sql(pages_sql(_files(snapshot))).to_arrow_reader(PAGES_PER_BATCH)
        for batch in reader:
            for row in batch.to_pylist():
                text = article(row["title"], row["sentences"], row["paragraphs"], row["seed"])
                stamp = date.fromordinal(day.toordinal() - row["days_before"])
                yield PAGE.format(
                    title=escape(row["title"]),
                    page_id=row["page_id"],
                    revision_id=1_000_000 + row["page_id"],
                    timestamp=f"{stamp.isoformat()}T12:00:00Z",
                    size=len(text.encode()),
                    text=escape(text),
                )
    finally:
        con.close()


def write_wikipedia(snapshot: Path, day: date, out: Path) -> tuple[int, int]:
    """Write the articles of ``snapshot`` as a gzip-compressed MediaWiki export to ``out``;
    return (pages, uncompressed bytes)."""
    tmp = out.with_name(out.name + ".tmp")
    pages = written = 0
    with tmp.open("wb") as sink:
        pigz = subprocess.Popen(["pigz", "-p", "2", "-6", "-c"], stdin=subprocess.PIPE, stdout=sink)
        assert pigz.stdin is not None
        try:
            for chunk in itertools.chain([HEADER], page_xml(snapshot, day, out.parent / ".spill")):
                data = chunk.encode()
                pigz.stdin.write(data)
                written += len(data)
                pages += chunk.startswith("  <page>")
            pigz.stdin.write(b"</mediawiki>\n")
        finally:
            pigz.stdin.close()
            if pigz.wait() != 0:
                raise SystemExit(f"pigz failed while writing {tmp}")
    tmp.replace(out)
    return pages, written + 13
