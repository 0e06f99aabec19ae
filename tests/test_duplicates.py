"""An entity id that appears more than once in an input is kept once (issue 34, finding 7):
the revision with the highest ``lastrevid`` (else the last one read), whichever chunks or
workers the occurrences went to; the others are left out of every table and recorded in
``rejects.jsonl`` (reason ``duplicate``) and in the manifest's ``duplicates``.

The reference for "the tables of the dump without the losers" is the same dump with each
losing line blanked: the kept entities keep their line numbers. Real entities throughout
(tests/data); the variants of an entity differ in what they hold (fewer statements, labels,
sitelinks), so a loser's rows left behind in any table would show.
"""

from __future__ import annotations

import copy
import json
import tempfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.ingest.parse import parse_json_chunk
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.readers.json_dump import Chunk
from kgdiff.rows.native import native_enabled
from kgdiff.store.buckets import key_ranges
from kgdiff.store.finalize import finalize
from kgdiff.store.layout import TABLES, table_files
from kgdiff.store.manifest import Manifest, SourceInfo, read_manifest
from kgdiff.store.staging import PartMeta, Staging, StagingState, write_part
from tests.paths import DATA, run_kgdiff

ENTITY_FILES = [
    "wdtk_item.json",
    "wdtk_property.json",
    "wdtk_lexeme.json",
    "wdtk_mediainfo.json",
    "native/wd_L3354.json",
    "wd_Q42.json",
]
MOCK_DUMP = DATA / "native" / "mock-dump-for-long-testing.json"
Doc = dict[str, Any]


@cache
def pool() -> tuple[Doc, ...]:
    """Real entities: the Wikidata Toolkit's mock dump (items and properties) and the single
    entity files (an item, a property, lexemes, a mediainfo, Q42 with its many labels, which
    stands for the mock dump's Q42), one of each id, Q42 last."""
    docs = [json.loads(line.rstrip(",")) for line in MOCK_DUMP.read_text().splitlines()[1:-1]]
    docs += [json.loads((DATA / name).read_text()) for name in ENTITY_FILES]
    by_id = {doc["id"]: doc for doc in docs if doc["id"] != "Q42"}
    return (*by_id.values(), docs[-1])


def variant(doc: Doc, kind: int, lastrevid: int | None) -> Doc:
    """``doc`` as another revision might hold it: 0 whole, 1 only its first property's
    statements, 2 one label and no aliases, 3 no sitelinks and no descriptions; with
    ``lastrevid`` (None: without one)."""
    doc = copy.deepcopy(doc)
    claims = "statements" if doc.get("type") == "mediainfo" else "claims"
    if kind == 1 and doc.get(claims):
        first = sorted(doc[claims])[0]
        doc[claims] = {first: doc[claims][first]}
    elif kind == 2 and doc.get("labels"):
        first = sorted(doc["labels"])[0]
        doc["labels"] = {first: doc["labels"][first]}
        doc.pop("aliases", None)
    elif kind == 3:
        doc.pop("sitelinks", None)
        doc.pop("descriptions", None)
    doc.pop("lastrevid", None)
    if lastrevid is not None:
        doc["lastrevid"] = lastrevid
    return doc


Occurrence = tuple[int, int, int | None]
"""An entity of the pool (index), its variant, its lastrevid."""


def kept_lines(lines: Sequence[bytes]) -> dict[int, int]:
    """For each line (1-based) of a dump's entity left out, the line of the one kept: the
    highest lastrevid (one with it beats one without), else the last."""
    by_id: dict[str, list[tuple[bool, int, int]]] = {}
    for number, line in enumerate(lines, start=1):
        text = line.rstrip(b",")
        if text.startswith(b"{"):
            doc = json.loads(text)
            revision = doc.get("lastrevid")
            rank = (revision is not None, revision or 0, number)
            by_id.setdefault(doc["id"], []).append(rank)
    dropped = {}
    for ranks in by_id.values():
        kept = max(ranks)[2]
        dropped.update({rank[2]: kept for rank in ranks if rank[2] != kept})
    return dropped


def dump_lines(occurrences: Sequence[Occurrence], blank: Sequence[int] = ()) -> list[bytes]:
    """The dump's lines (``[``, one entity a line, ``]``), the lines ``blank`` left empty."""
    docs = [variant(pool()[i], kind, revision) for i, kind, revision in occurrences]
    lines = [b"["]
    for line, doc in enumerate(docs, start=2):
        last = line == len(docs) + 1
        text = b"" if line in blank else msgspec.json.encode(doc) + (b"" if last else b",")
        lines.append(text)
    return [*lines, b"]"]


# -- the finalize step on staged chunks (both row builders) ----------------------------------


def staged(folder: Path, lines: list[bytes], cuts: set[int], native: bool) -> Staging:
    """``lines`` parsed into chunks (a new one at each line index in ``cuts``) by the chosen
    row builder and staged as the parse workers stage them."""
    staging = Staging(folder, StagingState(SourceInfo("dump.json", 0, 0), 1))
    staging.open()
    chunks: list[list[bytes]] = [[]]
    for index, line in enumerate(lines):
        if index in cuts and chunks[-1]:
            chunks.append([])
        chunks[-1].append(line)
    first_line = offset = 0
    for seq, chunk_lines in enumerate(chunks):
        data = b"\n".join(chunk_lines) + b"\n"
        result = parse_json_chunk(Chunk(seq, offset, first_line, data), native=native)
        groups = [(group, key_ranges(group)) for group in result.groups]
        ranges = sorted(r for _, group_ranges in groups for r in group_ranges)
        sizes = {name: sum(g[name].nbytes for g, _ in groups) for name in result.groups[0]}
        meta = PartMeta(seq, result.entities, result.statements, len(result.rejects),
                        len(data), key_ranges=ranges, table_bytes=sizes)  # fmt: skip
        write_part(staging.parts, meta, groups, [], "none")
        first_line, offset = first_line + len(chunk_lines), offset + len(data)
    return staging


def finalized_tables(
    folder: Path, lines: list[bytes], cuts: set[int], native: bool, bucket_bytes: int | None
) -> tuple[dict[str, pa.Table], list[Doc], int]:
    """Every published table, the rejects records and the duplicates count of ``lines``."""
    staging = staged(folder, lines, cuts, native)
    done = finalize(staging, threads=2, bucket_bytes=bucket_bytes)
    tables = {
        table: pa.concat_tables([pq.read_table(p) for p in table_files(staging.final, table)])
        for table in TABLES
    }
    records = _records(staging.final) if done.rejects_file else []
    staging.close(remove=True)
    return tables, records, done.duplicates


BUILDERS = [True, False] if native_enabled() else [False]

occurrence_lists = st.lists(
    st.integers(min_value=0, max_value=10_000), min_size=1, max_size=5, unique=True
).flatmap(
    lambda entities: st.lists(
        st.tuples(
            st.sampled_from(entities),
            st.integers(min_value=0, max_value=3),
            st.sampled_from([None, 5, 7, 7, 9]),
        ),
        min_size=1,
        max_size=24,
    )
)


@settings(max_examples=40)
@given(
    occurrences=occurrence_lists,
    cuts=st.sets(st.integers(min_value=1, max_value=26)),
    native=st.sampled_from(BUILDERS),
    bucket_bytes=st.sampled_from([None, 4096]),
)
def test_random_duplicates_give_the_tables_of_the_dump_without_the_losers(
    occurrences: list[Occurrence], cuts: set[int], native: bool, bucket_bytes: int | None
) -> None:
    """Random revisions of random real entities, repeated in any order and across any
    chunks (and, with small buckets, in several subject ranges): the tables are those of
    the dump whose losing lines are blank, and each loser is a ``duplicate`` record."""
    occurrences = [(i % len(pool()), kind, revision) for i, kind, revision in occurrences]
    dropped = kept_lines(dump_lines(occurrences))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        got, records, duplicates = finalized_tables(
            folder / "dump", dump_lines(occurrences), cuts, native, bucket_bytes
        )
        blanked = dump_lines(occurrences, blank=list(dropped))
        want, none, no_duplicates = finalized_tables(
            folder / "reference", blanked, cuts, native, bucket_bytes
        )
    assert (none, no_duplicates) == ([], 0)
    for table in TABLES:
        assert got[table].equals(want[table]), table
    assert duplicates == len(dropped)
    assert {(r["line"], r["kept_line"]) for r in records} == set(dropped.items())
    assert {r["reason"] for r in records} <= {"duplicate"}
    ids = {line: pool()[occurrences[line - 2][0]]["id"] for line in dropped}
    assert all(r["id"] == ids[r["line"]] for r in records)


# -- end to end: the command line, both row builders, chunks and workers ----------------------


def _snapshot_rows(directory: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table's rows, in the published order."""
    rows = {}
    with duckdb.connect() as connection:
        for table in TABLES:
            files = [str(path) for path in table_files(directory, table)]
            query = f"SELECT * FROM read_parquet({files!r}, hive_partitioning = false)"
            rows[table] = connection.sql(query).fetchall()
    return rows


def _records(directory: Path) -> list[Doc]:
    text = (directory / "rejects.jsonl").read_text()
    return [json.loads(line) for line in text.splitlines()]


def _ingest_cli(dump: Path, store: Path, name: str, native: bool) -> Manifest:
    result = run_kgdiff(
        "ingest", "wikidata", str(dump), "--snapshot", name, "--date", "2020-01-01",
        "--store", str(store), "--workers", "2", "--chunk-mb", "1",
        env={"KGDIFF_NATIVE": "1" if native else "0"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return read_manifest(store / "snapshots" / f"snapshot={name}" / "manifest.json")


def test_duplicates_across_chunks_and_workers_with_both_row_builders(tmp_path: Path) -> None:
    """Germany (Q183, ~1 MB) and Q42 three times each and other real entities twice, spread
    over a dump of ~2.5 MB read in 1 MB chunks by two workers: each builder publishes the
    tables of the dump without the losers, and records them."""
    entities = len(pool())
    q183 = json.loads((DATA / "native" / "items_Q183.json").read_text())
    q42, item = entities - 1, 0
    occurrences: list[Occurrence] = [(q42, 0, 5), (item, 1, None)]
    occurrences += [(i, 0, None) for i in range(entities)]
    occurrences += [(q42, 2, 9), (item, 3, None), (entities - 2, 3, 3), (q42, 3, 7)]
    lines = dump_lines(occurrences)
    big = msgspec.json.encode({**q183, "lastrevid": 5}) + b","
    older = msgspec.json.encode({**q183, "lastrevid": 1}) + b","
    lines = [lines[0], big, older, big, *lines[1:]]  # and the mock dump's Q183, without one
    dropped = kept_lines(lines)
    assert dropped[2] == dropped[3] == 4  # equal revisions: the last; and higher than none
    blank = set(dropped)
    dump, reference = tmp_path / "dump.json", tmp_path / "reference.json"
    dump.write_bytes(b"\n".join(lines) + b"\n")
    kept = [b"" if number in blank else text for number, text in enumerate(lines, start=1)]
    reference.write_bytes(b"\n".join(kept) + b"\n")
    assert dump.stat().st_size > 2 << 20  # three chunks at least
    results = {}
    for native in BUILDERS:
        got = _ingest_cli(dump, tmp_path / "store", f"dump-{native}", native)
        want = _ingest_cli(reference, tmp_path / "store", f"ref-{native}", native)
        folder = tmp_path / "store" / "snapshots"
        rows = _snapshot_rows(folder / f"snapshot=dump-{native}")
        assert rows == _snapshot_rows(folder / f"snapshot=ref-{native}")
        assert got.counts == want.counts and got.rejects == 0
        assert got.duplicates == len(blank) and want.duplicates == 0
        records = _records(folder / f"snapshot=dump-{native}")
        assert {(r["line"], r["kept_line"]) for r in records} == set(dropped.items())
        results[native] = rows
    assert len({json.dumps(rows, default=str) for rows in results.values()}) == 1


def test_an_entity_twice_is_published_once_and_recorded(tmp_path: Path) -> None:
    """The issue's case: the real Q1 twice (same revision). Before: two entities rows, two
    English labels, every statement row twice; now one of each, the first copy recorded as
    a duplicate, in the manifest and the summary."""
    q1 = msgspec.json.encode(json.loads((DATA / "legacy" / "items_current_Q1.json").read_text()))
    dump = tmp_path / "twice.json"
    dump.write_bytes(b"[\n" + q1 + b",\n" + q1 + b"\n]\n")
    store = tmp_path / "store"
    result = run_kgdiff(
        "ingest", "wikidata", str(dump), "--snapshot", "twice", "--date", "2015-01-01",
        "--store", str(store),
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        one = connection.execute(
            "SELECT (SELECT count(*) FROM entities), (SELECT count(*) FROM labels "
            "WHERE kind = 'label' AND lang = 'en'), (SELECT count(*) - count(DISTINCT "
            "statement_id) FROM statements), (SELECT count(*) FROM statements)"
        ).fetchone()
        shown = connection.execute("SELECT duplicates FROM snapshots").fetchall()
    assert one is not None and one[:3] == (1, 1, 0) and one[3] > 0
    assert shown == [(1,)]  # the catalog's snapshots view shows the count too
    assert "1 duplicate entity left out" in " ".join(result.stdout.split())
    folder = store / "snapshots" / "snapshot=twice"
    manifest = read_manifest(folder / "manifest.json")
    assert (manifest.duplicates, manifest.rejects, manifest.rejects_file) == (1, 0, "rejects.jsonl")
    (record,) = _records(folder)
    assert record == {
        "source": str(dump),
        "line": 2,
        "offset": None,
        "reason": "duplicate",
        "error": "duplicate id Q1: the occurrence at line 3 (no lastrevid) is kept, this one "
        "(no lastrevid) is left out",
        "id": "Q1",
        "lastrevid": None,
        "kept_line": 3,
        "kept_lastrevid": None,
    }


def test_an_old_manifest_without_duplicates_still_reads(tmp_path: Path) -> None:
    """Manifests written before the field: read as no duplicates."""
    old = {
        "name": "old", "date": "2014-12-01", "kind": "wikidata",
        "source": {"path": "x.json", "size": 1, "mtime_ns": 1}, "dump_date": None,
        "counts": {"entities": 1}, "rejects": 0, "rejects_file": None, "tool_version": "0",
        "duckdb_version": "1", "python_version": "3.11", "created_at": "2026-01-01T00:00:00",
        "elapsed_seconds": 1.0, "workers": 1, "chunk_bytes": 1,
    }  # fmt: skip
    path = tmp_path / "manifest.json"
    path.write_bytes(msgspec.json.encode(old))
    assert read_manifest(path).duplicates == 0


# -- XML dumps: one revision per page, and a page that appears twice --------------------------

DAILY_XML = DATA / "sample-daily-dump-20140220.xml"


def _xml_with_pages(pages: list[str], path: Path) -> Path:
    """The real daily dump with its Q1 page replaced by ``pages``."""
    text = DAILY_XML.read_text(encoding="utf-8")
    start = text.index("  <page>")
    end = text.index("</page>", start) + len("</page>\n")
    path.write_text(text[:start] + "".join(pages) + text[end:], encoding="utf-8")
    return path


def _q1_pages() -> tuple[str, str]:
    """The real Q1 page of the daily dump with its five revisions, and the same page without
    its last revision (another label, another revision as of the date)."""
    text = DAILY_XML.read_text(encoding="utf-8")
    start = text.index("  <page>")
    end = text.index("</page>", start) + len("</page>\n")
    page = text[start:end]
    last = page.rindex("    <revision>")
    cut = page[:last] + page[page.index("</revision>", last) + len("</revision>\n") :]
    return page, cut


def _without_lines(directory: Path) -> dict[str, list[tuple[object, ...]]]:
    rows = _snapshot_rows(directory)
    rows["entities"] = [row[:-1] for row in rows["entities"]]  # source_line: record numbers
    return rows


@pytest.mark.parametrize("order", ["whole-then-cut", "cut-then-whole"])
def test_an_xml_entity_page_twice_keeps_the_last_read(tmp_path: Path, order: str) -> None:
    """Its revisions carry no lastrevid: the page read last wins, as the one page alone."""
    whole, cut = _q1_pages()
    pages = [whole, cut] if order == "whole-then-cut" else [cut, whole]
    store = tmp_path / "store"

    def ingest(name: str, chosen: list[str]) -> Path:
        path = _xml_with_pages(chosen, tmp_path / f"{name}.xml")
        request = IngestRequest(path, snapshot=name, date="2014-02-20", store=store)
        return ingest_wikidata(request).directory

    twice, alone = ingest("twice", pages), ingest("alone", pages[-1:])
    assert _without_lines(twice) == _without_lines(alone)
    assert _without_lines(twice) != _without_lines(ingest("other", pages[:1]))
    assert read_manifest(twice / "manifest.json").duplicates == 1


def test_the_samples_revisions_are_one_entity_each(sample_store: Path) -> None:
    """The bundled dumps (two XML dumps and a JSON dump): one entity per entity page, no
    duplicate."""
    xml = 0
    for folder in sorted((sample_store / "snapshots").iterdir()):
        manifest = read_manifest(folder / "manifest.json")
        assert manifest.duplicates == 0, folder.name
        if manifest.source.format == "xml-dump":
            assert manifest.counts["entities"] == manifest.input_stats["xml_entity_pages"]
            xml += 1
    assert xml == 2


@pytest.mark.parametrize("day", ["2014-02-19", "2014-02-20"])
def test_a_page_of_many_revisions_is_one_entity(tmp_path: Path, day: str) -> None:
    """The real daily dump's Q1 page has five revisions: one of them is the entity."""
    request = IngestRequest(DAILY_XML, snapshot="daily", date=day, store=tmp_path)
    result = ingest_wikidata(request)
    assert result.manifest.input_stats["xml_revisions"] >= 5
    assert result.manifest.counts["entities"] == 1 and result.manifest.duplicates == 0
