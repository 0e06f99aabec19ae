"""``kgdiff ingest rdf`` on real files: the sample snapshots exported as N-Triples come back
as the same tables; Wikidata's own RDF (WDQS test files, tests/data/rdf/) ingests with one
statement per statement node and the value keys its value nodes give; compressed inputs,
N-Quads and RDF/XML give the same snapshot; malformed input fails clearly or is set aside;
the time conversion is the inverse of the export's (property test)."""

from __future__ import annotations

import bz2
import dataclasses
import gzip
import io
import logging
import re
import shutil
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import duckdb
import msgspec
import pytest
import rdflib
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st
from rdflib import RDF, BNode, Literal, URIRef

from kgdiff.calendars import days_in_month
from kgdiff.errors import InputError, UsageError
from kgdiff.export.rdf.times import parse_key, xsd_datetime
from kgdiff.export.rdf.writer import RdfRequest, export_rdf
from kgdiff.ingest.rdf_snapshot import RdfIngestRequest, RdfIngestResult, ingest_rdf
from kgdiff.readers.rdf_chunks import rdf_chunks
from kgdiff.readers.rdf_entities import EntityBuilder, parse_chunk
from kgdiff.readers.rdf_nodes import NODE_CACHE
from kgdiff.readers.rdf_values import GREGORIAN, JULIAN, wikibase_time
from kgdiff.timevalue import GREGORIAN_QID, JULIAN_QID, time_key
from tests.paths import DATA, run_kgdiff

RDF_DIR = DATA / "rdf"
WD = "http://www.wikidata.org/entity/"
PROP = "http://www.wikidata.org/prop/"
WIKIBASE = "http://wikiba.se/ontology#"
STATEMENT = URIRef(WIKIBASE + "Statement")
REAL_FILES = {
    "Q24628793.ttl": "2024-10-22",
    "Q37599471.ttl": "2024-04-08",
    "Q513-munged-2020.ttl": "2020-09-05",
    "small_dump_2019.ttl": "2019-11-19",
    "small_dump_chunk.ttl": "2020-03-02",
    "commons_dump.ttl": "2021-01-10",
    "L691820.ttl": "2024-08-10",
    "lexeme_dump.ttl": "2018-10-18",
}
_ENTITY = re.compile(r".*/entity/([QPLM]\d+)")
_CLAIM = re.compile(r"http://www\.wikidata\.org/prop/(P\d+)")

logging.getLogger("rdflib.term").setLevel(logging.ERROR)  # BCE xsd:dateTime literals


def _name(file: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", file.lower().removesuffix(".ttl"))


def _table(
    folder: Path, table: str, columns: str, of: list[str] | None = None
) -> list[tuple[object, ...]]:
    """A snapshot table's rows (the named columns), sorted; ``of``: those of these entities
    alone."""
    key = "subject" if table in ("statements", "qualifiers") else "qid"
    where = f" WHERE {key} IN (SELECT unnest(?))" if of is not None else ""
    with duckdb.connect() as connection:
        sql = f"SELECT {columns} FROM read_parquet('{folder}/{table}/*.parquet'){where}"
        rows = connection.execute(sql, [of] if of is not None else []).fetchall()
    return sorted(rows, key=repr)


def _snapshot(store: Path, name: str) -> Path:
    return store / "snapshots" / f"snapshot={name}"


# -- 1. round trip: export rdf (N-Triples) → ingest rdf gives the snapshot's tables -----------

ENTITY_COLUMNS = (
    "qid, type, datatype, label_en, description_en, aliases_en, p31, n_labels, n_sitelinks, "
    "n_statements, lastrevid, modified, redirect_to"
)
LABEL_COLUMNS = "qid, kind, lang, value, ordinal"
SITELINK_COLUMNS = "qid, site, title, badges"
SNAK_COLUMNS = (
    "snaktype, value_type, value, object_qid, time_precision, time_calendar, time_lo, time_hi"
)
STATEMENT_COLUMNS = (
    f"statement_id, subject, pid, ordinal, rank, {SNAK_COLUMNS}, start_lo, start_hi, "
    "start_snaktype, end_lo, end_hi, end_snaktype, point_lo, point_hi, point_snaktype, "
    "n_qualifiers"
)
QUALIFIER_COLUMNS = (
    "statement_id, subject, pid, qualifier_pid, ordinal, snaktype, value_type, value, "
    "object_qid, time_precision, time_calendar, time_lo, time_hi"
)
VALUE_DATATYPE = "CASE WHEN snaktype = 'value' THEN datatype END AS datatype"
"""What the export cannot give back, left out of the comparison (docs/rdf.md):
* ``statements.n_references``: the export writes no references;
* the datatype of an unknown or no value: the 2014 dumps record none on such snaks, the RDF
  path takes the property's (as today's JSON has it);
* for the 2013 snapshot, every snak's datatype: dumps before 2014 record none (checked below);
* ``source_line`` (where a row was in the input file) and the ``snapshot`` column."""


ROUND_TRIP_EVERY = 16
"""Besides one entity of every kind of row (37 to 58 of them), every 16th entity of a
snapshot makes the round trip, ~110 to 160 in all (a whole snapshot, ~1,500 entities through
rdflib, took minutes of the suite; every 8th, 190 to 260 entities, still 35 s)."""

COVERING_ENTITIES = """
WITH picks AS (
    SELECT min(subject) AS qid FROM read_parquet(?) GROUP BY datatype, snaktype, value_type,
        rank, time_precision, time_calendar, n_qualifiers > 0, start_snaktype,
        end_snaktype, point_snaktype
    UNION SELECT min(subject) FROM read_parquet(?)
        GROUP BY datatype, snaktype, value_type, time_precision, time_calendar
    UNION SELECT min(qid) FROM read_parquet(?) GROUP BY type, datatype, redirect_to IS NULL,
        label_en IS NULL, description_en IS NULL
    UNION SELECT min(qid) FROM read_parquet(?) GROUP BY kind
    UNION SELECT min(qid) FROM read_parquet(?) GROUP BY len(badges) > 0
    UNION SELECT qid FROM (
        SELECT qid, row_number() OVER (ORDER BY qid) AS n FROM read_parquet(?)
    ) WHERE n % $every = 0
)
SELECT list(DISTINCT qid ORDER BY qid) FROM picks WHERE qid IS NOT NULL
"""
"""One entity of every kind of statement, qualifier, entity, label and sitelink row of a
snapshot (its datatype, snak and value type, rank, time precision and calendar, temporal
qualifiers), and every $every-th entity."""


def _round_trip_entities(store: Path, snapshot: str) -> list[str]:
    folder = _snapshot(store, snapshot)
    tables = ["statements", "qualifiers", "entities", "labels", "sitelinks", "entities"]
    files = [f"{folder}/{table}/*.parquet" for table in tables]
    sql = COVERING_ENTITIES.replace("$every", str(ROUND_TRIP_EVERY))
    with duckdb.connect() as connection:
        row = connection.execute(sql, files).fetchone()
    assert row is not None
    return list(row[0])


@pytest.fixture(scope="module")
def round_trips(
    sample_store: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, tuple[list[str], RdfIngestResult]]:
    """wd-2014-12 (a JSON dump), wd-2014-10 (XML, legacy and current JSON) and wd-2013-12
    (legacy XML): of each, the entities of :data:`COVERING_ENTITIES` exported as N-Triples,
    then ingested from that file into a store of their own (no datatypes from elsewhere), as
    a stream: the export writes entity by entity."""
    results = {}
    for snapshot in ("wd-2014-12", "wd-2014-10", "wd-2013-12"):
        folder = tmp_path_factory.mktemp(f"rt-{snapshot}")
        out = folder / f"{snapshot}.nt"
        chosen = _round_trip_entities(sample_store, snapshot)
        export_rdf(sample_store, RdfRequest(snapshot, out, entities=chosen))
        request = RdfIngestRequest(out, snapshot="back", date="2020-01-01", store=folder / "store")
        results[snapshot] = (chosen, ingest_rdf(request))
    return results


@pytest.mark.slow
@pytest.mark.parametrize("snapshot", ["wd-2014-12", "wd-2014-10", "wd-2013-12"])
def test_export_then_ingest_gives_the_same_tables(sample_store, round_trips, snapshot):
    original = _snapshot(sample_store, snapshot)
    chosen, result = round_trips[snapshot]
    back = result.ingest.directory
    legacy = snapshot in ("wd-2013-12", "wd-2014-10")  # some or all snaks without datatype
    datatype = "" if legacy else f", {VALUE_DATATYPE}"
    tables = {
        "entities": ENTITY_COLUMNS,
        "labels": LABEL_COLUMNS,
        "sitelinks": SITELINK_COLUMNS,
        "statements": STATEMENT_COLUMNS + datatype,
        "qualifiers": QUALIFIER_COLUMNS + datatype,
    }
    for table, columns in tables.items():
        expected, got = _table(original, table, columns, chosen), _table(back, table, columns)
        assert len(expected) > 0
        assert got == expected, table
    if snapshot == "wd-2013-12":
        nulls = _table(original, "statements", "count(*) FILTER (datatype IS NOT NULL)")
        assert nulls == [(0,)]  # why its datatypes are not compared
    if snapshot == "wd-2014-10":  # legacy entities' snaks have none: compare the others'
        typed = "statement_id, datatype"
        known = {row[0]: row[1] for row in _table(original, "statements", typed, chosen)}
        read = {row[0]: row[1] for row in _table(back, "statements", typed)}
        assert None in known.values()
        assert all(read[key] == kind for key, kind in known.items() if kind is not None)


def test_round_trip_counts(sample_store, round_trips):
    chosen, result = round_trips["wd-2014-12"]
    statements = _table(_snapshot(sample_store, "wd-2014-12"), "statements", "count(*)", chosen)
    assert result.counts["entities"] == len(chosen) > 150
    assert [(result.counts["statements"],)] == statements
    assert result.rejects == 0


def test_a_file_not_grouped_by_entity_is_refused_unless_any_order(sample_store, tmp_path):
    """An entity's triple coming back after other entities is one clear error by default;
    --any-order reads the file whole (three entities exported, the first line moved last,
    read in chunks of 64 KB: the line comes back chunks after its entity's)."""
    exported = tmp_path / "three.nt"
    export_rdf(sample_store, RdfRequest("wd-2014-12", exported, entities=["Q183", "Q155", "Q1486"]))
    lines = exported.read_text(encoding="utf-8").splitlines(keepends=True)
    mixed = tmp_path / "mixed.nt"
    mixed.write_text("".join(lines[1:] + lines[:1]), encoding="utf-8")
    request = RdfIngestRequest(
        mixed, snapshot="x", date="2020-01-01", store=tmp_path / "s", chunk_bytes=65536
    )
    with pytest.raises(InputError, match=r"not grouped by entity; pass --any-order"):
        ingest_rdf(request)
    assert not (_snapshot(tmp_path / "s", "x") / "manifest.json").exists()
    done = ingest_rdf(dataclasses.replace(request, grouped=False))
    assert done.counts["entities"] == 3
    assert (
        done.counts["statements"]
        == ingest_rdf(
            RdfIngestRequest(exported, snapshot="y", date="2020-01-01", store=tmp_path / "s")
        ).counts["statements"]
    )


# -- 2. Wikidata's own RDF -----------------------------------------------------------------


@pytest.fixture(scope="module")
def real_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    store = tmp_path_factory.mktemp("rdf-real")
    for file, day in REAL_FILES.items():
        ingest_rdf(RdfIngestRequest(RDF_DIR / file, snapshot=_name(file), date=day, store=store))
    return store


class _Recorded:
    """A Progress that keeps what it is told: (title, entities, statements) of each update."""

    def __init__(self) -> None:
        self.title = ""
        self.updates: list[tuple[str, int, int]] = []

    def begin(self, description: str, total_bytes: int) -> None:
        self.title = description

    def update(self, done_bytes: int, entities: int, statements: int) -> None:
        self.updates.append((self.title, entities, statements))

    def phase(self, description: str) -> None:
        pass

    def advance(self, done: float, total: float) -> None:
        pass

    def end(self) -> None:
        pass


def test_progress_names_the_users_file_and_counts_the_last_entity(tmp_path):
    """The reading of a one-entity file ends counting that entity (it is complete only when
    the file ends), and the build from the converted JSON is named for what it does, not for
    an intermediate file the user never gave."""
    progress = _Recorded()
    file = "Q513-munged-2020.ttl"
    request = RdfIngestRequest(RDF_DIR / file, snapshot="one", date="2020-01-01", store=tmp_path)
    done = ingest_rdf(request, progress)
    titles = [title for title, *_ in progress.updates]
    assert set(titles) == {f"reading {file}", "building snapshot one from the converted entities"}
    last_read = [update for update in progress.updates if update[0] == titles[0]][-1]
    assert last_read[1:] == (1, done.counts["statements"]) and done.counts["statements"] > 0


def _graph(file: str) -> rdflib.Graph:
    graph = rdflib.Graph()
    graph.parse(RDF_DIR / file, format="turtle")
    return graph


def _statement_nodes(graph: rdflib.Graph) -> dict[str, set[str]]:
    """Per entity (forms and senses left out: the store does not model them), its statement
    nodes: the objects of its ``p:P`` triples that are described (WDQS's munged form drops
    their ``a wikibase:Statement``)."""
    nodes: dict[str, set[str]] = defaultdict(set)
    for subject, predicate, obj in graph:
        entity = _ENTITY.fullmatch(str(subject))
        if entity and _CLAIM.fullmatch(str(predicate)) and (obj, None, None) in graph:
            nodes[entity[1]].add(str(obj))
    return nodes


@pytest.mark.parametrize("file", list(REAL_FILES))
def test_one_statement_per_statement_node(real_store, file):
    graph = _graph(file)
    nodes = _statement_nodes(graph)
    typed = set(map(str, graph.subjects(RDF.type, STATEMENT)))
    if typed:  # the file types its statement nodes (WDQS's munged form does not)
        per_name: Counter[str] = Counter()
        for node in typed:  # by the entity its name starts with (a form's or sense's: left out)
            named = re.match(r".*/statement/([QPLMqplm]\d+)-(?![FS]\d{1,6}-)", node)
            if named:  # old statement ids have a lower-case entity: q42$…
                per_name[named[1].upper()] += 1
        assert per_name == Counter({qid: len(found) for qid, found in nodes.items()})
    rows = _table(_snapshot(real_store, _name(file)), "statements", "subject, statement_id")
    per_entity = Counter(subject for subject, _ in rows)
    assert per_entity == Counter({qid: len(found) for qid, found in nodes.items()})


def test_what_the_files_hold(real_store):
    folder = _snapshot(real_store, _name("Q513-munged-2020.ttl"))
    assert _table(folder, "entities", "qid, type, n_sitelinks") == [("Q513", "item", 200)]
    assert ("Q513", "enwikivoyage", "Mount Everest") in _table(
        folder, "sitelinks", "qid, site, title"
    )
    small = _snapshot(real_store, _name("small_dump_2019.ttl"))
    assert ("Q6825", "redirect", "Q26709563") in _table(small, "entities", "qid, type, redirect_to")
    lexeme = _snapshot(real_store, _name("lexeme_dump.ttl"))
    assert _table(lexeme, "labels", "qid, kind, lang, value") == [
        ("L4696", "lemma", "en", "statement")
    ]
    commons = _snapshot(real_store, _name("commons_dump.ttl"))
    assert {q for (q,) in _table(commons, "entities", "type")} == {"mediainfo"}


def _time_nodes(graph: rdflib.Graph) -> list[tuple[str, str, str, str]]:
    """(statement node, property, expected value key, kind) of each ``psv:``/``pqv:`` time
    value node with a CE Gregorian date, its key written out independently of the reader."""
    found = []
    for node, predicate, value in graph:
        kind = str(predicate).removeprefix(PROP)
        if not kind.startswith(("statement/value/P", "qualifier/value/P")):
            continue
        time = graph.value(value, URIRef(WIKIBASE + "timeValue"))
        precision = graph.value(value, URIRef(WIKIBASE + "timePrecision"))
        calendar = graph.value(value, URIRef(WIKIBASE + "timeCalendarModel"))
        if time is None or str(time).startswith("-") or str(calendar) != GREGORIAN:
            continue
        year, month, day = str(time)[:10].split("-")
        p = int(str(precision))
        month, day = (month if p >= 10 else "00"), (day if p >= 11 else "00")
        key = f"+{year}-{month}-{day}T00:00:00Z|{p}|{GREGORIAN_QID}"
        found.append((str(node), kind.rpartition("/")[2], key, kind.partition("/")[0]))
    return found


@pytest.mark.parametrize("file", ["Q24628793.ttl", "Q37599471.ttl", "Q513-munged-2020.ttl"])
def test_dated_values_have_the_value_nodes_keys(real_store, file):
    nodes = _time_nodes(_graph(file))
    assert nodes
    folder = _snapshot(real_store, _name(file))
    statements = set(_table(folder, "statements", "statement_id, pid, value"))
    qualifiers = set(_table(folder, "qualifiers", "statement_id, qualifier_pid, value"))
    for node, pid, key, kind in nodes:
        sid = re.sub(r"^(.*/)?([QPLM]\d+)-", r"\2$", node.removeprefix(WD + "statement/"), count=1)
        assert (sid, pid, key) in (statements if kind == "statement" else qualifiers), node


def test_a_date_and_its_precision(real_store):
    """Q24628793's publication date (P577) 2010-03-15, day precision, Gregorian; a point in
    time (P585) 1953-05-29 qualifying one of Q513's statements."""
    folder = _snapshot(real_store, _name("Q24628793.ttl"))
    rows = _table(folder, "statements", "pid, value, time_precision, time_calendar")
    assert ("P577", "+2010-03-15T00:00:00Z|11|Q1985727", 11, "Q1985727") in rows
    everest = _table(
        _snapshot(real_store, _name("Q513-munged-2020.ttl")), "qualifiers", "qualifier_pid, value"
    )
    assert ("P585", "+1953-05-29T00:00:00Z|11|Q1985727") in everest


def _truthy(graph: rdflib.Graph, entity: str, pids: set[str]) -> set[tuple[str, str]]:
    """An entity's ``wdt:`` triples of the properties ``pids``, an unknown value (a blank
    node, a skolem IRI) as one marker (Wikibase and the export name it differently), language
    tags in lower case (BCP 47 tags are case-insensitive; WDQS writes ``zh-hans``)."""
    found = set()
    for predicate, obj in graph.predicate_objects(URIRef(WD + entity)):
        pid = str(predicate).removeprefix(PROP + "direct/")
        if pid not in pids:
            continue
        unknown = isinstance(obj, BNode) or "/.well-known/genid/" in str(obj)
        if unknown:
            term = "unknown"
        elif isinstance(obj, Literal) and obj.language:
            term = f"{obj}@{obj.language.lower()}"
        else:
            term = obj.n3()
        found.add((pid, term))
    return found


def _compared_pids(graph: rdflib.Graph, entity: str) -> set[str]:
    """The properties with both ``wdt:`` triples and statements in the file. WDQS's test
    files are edited by hand: Q37599471.ttl has "dummy" statements without their ``wdt:``
    triples, small_dump_chunk.ttl a ``wdt:P576`` without its statement (and no property with
    both, so it is not compared at all); those are left out."""
    subject = URIRef(WD + entity)
    truthy, claimed = set(), set()
    for predicate in graph.predicates(subject):
        text = str(predicate)
        if text.startswith(PROP + "direct/"):
            truthy.add(text.removeprefix(PROP + "direct/"))
        elif _CLAIM.fullmatch(text):
            claimed.add(text.removeprefix(PROP))
    return truthy & claimed


@pytest.mark.parametrize(
    ("file", "entity"),
    [
        ("Q24628793.ttl", "Q24628793"),
        ("Q37599471.ttl", "Q37599471"),
        ("Q513-munged-2020.ttl", "Q513"),
    ],
)
def test_truthy_export_gives_the_files_wdt_triples(real_store, tmp_path, file, entity):
    out = tmp_path / "truthy.nt"
    export_rdf(real_store, RdfRequest(_name(file), out, entities=[entity], truthy=True))
    exported = rdflib.Graph()
    exported.parse(out, format="nt")
    graph = _graph(file)
    pids = _compared_pids(graph, entity)
    assert len(pids) >= 1
    assert _truthy(exported, entity, pids) == _truthy(graph, entity, pids)


def test_a_lexemes_forms_and_senses_are_counted_not_stored(tmp_path):
    result = ingest_rdf(
        RdfIngestRequest(RDF_DIR / "L691820.ttl", snapshot="l", date="2024-08-10", store=tmp_path)
    )
    assert result.counts["form_sense_triples"] > 0
    rows = _table(result.ingest.directory, "statements", "DISTINCT subject")
    assert rows == [("L691820",)]


def test_a_statement_in_json_and_in_rdf_gives_the_same_row(sample_store, real_store):
    """No sample holds the same revision of an entity as JSON and as RDF. The nearest: Q8's
    statement ``Q8$63214A9F-…`` (P646) is in the JSON dump of December 2014 (wd-2014-12) and,
    unchanged, in Wikidata's RDF of 2019-2020 (small_dump_chunk.ttl): its rows are equal, its
    one reference counted alike."""
    sid = "Q8$63214A9F-B2C8-42F9-8DA0-B046A989DDCF"
    columns = STATEMENT_COLUMNS + ", datatype, n_references"
    from_json = _table(_snapshot(sample_store, "wd-2014-12"), "statements", columns)
    from_rdf = _table(_snapshot(real_store, _name("small_dump_chunk.ttl")), "statements", columns)
    json_rows = [row for row in from_json if row[0] == sid]
    assert len(json_rows) == 1
    assert [row for row in from_rdf if row[0] == sid] == json_rows


def test_a_value_node_out_of_the_cache_falls_back_to_the_simple_value():
    """With room for one shared node, WDQS's value nodes written at the end of Q513's file are
    mostly gone when the entity is built: each such value is read from its ``ps:``/``pq:``
    simple value and counted."""
    text = (RDF_DIR / "Q513-munged-2020.ttl").read_text(encoding="utf-8")
    docs, counts = [], []
    for bound in (NODE_CACHE, 1):
        builder = EntityBuilder(cache_bound=bound)
        chunks = rdf_chunks(io.BytesIO(text.encode()), Path("Q513.ttl"), "turtle", 2048)
        found = [d for chunk in chunks for d in builder.add_triples(parse_chunk(chunk))]
        docs.append(found + list(builder.finish()))
        counts.append(builder.stats.counts)
    assert counts[0]["value_nodes_missing"] == 0 and counts[1]["value_nodes_missing"] > 0
    assert counts[1]["values_without_node"] > 0
    assert [d["id"] for d in docs[1]] == ["Q513"]
    assert docs[1][0]["claims"].keys() == docs[0][0]["claims"].keys()


# -- 3. compressed inputs, other syntaxes, malformed input ----------------------------------

SOURCE = RDF_DIR / "Q37599471.ttl"


def _comparable(folder: Path, ordinals: bool = True) -> dict[str, list[tuple[object, ...]]]:
    statement = STATEMENT_COLUMNS if ordinals else STATEMENT_COLUMNS.replace("ordinal, ", "")
    qualifier = QUALIFIER_COLUMNS if ordinals else QUALIFIER_COLUMNS.replace("ordinal, ", "")
    return {
        "entities": _table(folder, "entities", ENTITY_COLUMNS),
        "labels": _table(folder, "labels", LABEL_COLUMNS.replace(", ordinal", "")),
        "statements": _table(folder, "statements", statement + ", datatype, n_references"),
        "qualifiers": _table(folder, "qualifiers", qualifier + ", datatype"),
    }


def _ingest(path: Path, store: Path, name: str, **options: Any) -> RdfIngestResult:
    request = RdfIngestRequest(path, snapshot=name, date="2024-04-08", store=store)
    return ingest_rdf(dataclasses.replace(request, **options))


def test_compressed_inputs_give_the_same_snapshot(real_store, tmp_path):
    data = SOURCE.read_bytes()
    (files_gz := tmp_path / "q.ttl.gz").write_bytes(gzip.compress(data))
    (files_bz2 := tmp_path / "q.ttl.bz2").write_bytes(bz2.compress(data))
    (files_zst := tmp_path / "q.ttl.zst").write_bytes(zstandard.ZstdCompressor().compress(data))
    files = {"gz": files_gz, "bz2": files_bz2, "zst": files_zst}
    store = tmp_path / "store"
    tables = {k: _comparable(_ingest(p, store, k).ingest.directory) for k, p in files.items()}
    tables["plain"] = _comparable(_snapshot(real_store, _name(SOURCE.name)))  # read as is
    assert tables["plain"]["statements"]
    assert tables["gz"] == tables["plain"]
    assert tables["bz2"] == tables["plain"]
    assert tables["zst"] == tables["plain"]


@pytest.mark.filterwarnings("ignore:Dataset.contexts is deprecated:DeprecationWarning")
def test_n_triples_n_quads_and_rdf_xml_give_the_same_snapshot(real_store, tmp_path):
    """The same real graph in three other syntaxes, written by rdflib. rdflib's writers do
    not keep the order of the Turtle file, so ordinals (statement, alias, qualifier order)
    are left out of this comparison."""
    graph = _graph(SOURCE.name)
    nt = tmp_path / "q.nt"
    graph.serialize(nt, format="nt", encoding="utf-8")
    xml = tmp_path / "q.rdf"
    graph.serialize(xml, format="xml", encoding="utf-8")
    dataset = rdflib.Dataset()
    named = dataset.graph(URIRef("http://example.org/graph"))
    for triple in graph:
        named.add(triple)
    nq = tmp_path / "q.nq"
    dataset.serialize(nq, format="nquads", encoding="utf-8")
    store = tmp_path / "store"
    turtle = _comparable(_snapshot(real_store, _name(SOURCE.name)), ordinals=False)
    for path in (nt, nq, xml):
        got = _comparable(_ingest(path, store, path.suffix[1:]).ingest.directory, False)
        assert got == turtle, path.suffix
    # N-Triples and N-Quads in chunks of 2 KB (never between two lines of one subject)
    for path in (nt, nq):
        chunked = _ingest(path, store, f"small-{path.suffix[1:]}", chunk_bytes=2048)
        assert _comparable(chunked.ingest.directory, False) == turtle, path.suffix


@pytest.mark.parametrize("file", ["Q513-munged-2020.ttl", "Q37599471.ttl", "commons_dump.ttl"])
def test_small_chunks_give_the_same_snapshot(real_store, tmp_path, file):
    """Cut into chunks of 2 KB (dozens of them: the prefixes carried into each, value and
    reference nodes found in other chunks, WDQS's value nodes written at the end of the file,
    an entity's triples gathered across chunks), the file gives the snapshot read whole (as
    ``real_store`` read it, in one chunk)."""
    store = tmp_path / "store"
    whole = _comparable(_snapshot(real_store, _name(file)))
    small = _ingest(RDF_DIR / file, store, "small", chunk_bytes=2048)
    assert _comparable(small.ingest.directory) == whole
    assert small.counts.get("value_nodes_missing", 0) == (1 if file == "commons_dump.ttl" else 0)


def _broken_nt(tmp_path: Path) -> tuple[Path, int]:
    """Q24628793 as N-Triples with its 10th line broken (an IRI never closed)."""
    graph = _graph("Q24628793.ttl")
    lines = graph.serialize(format="nt", encoding="utf-8").decode().splitlines(keepends=True)
    lines[9] = lines[9].replace(">", "", 1)
    path = tmp_path / "broken.nt"
    path.write_text("".join(lines), encoding="utf-8")
    return path, 10


def test_a_malformed_line_fails_with_file_and_line(tmp_path):
    path, line = _broken_nt(tmp_path)
    with pytest.raises(InputError, match=rf"{re.escape(str(path))}: line {line}: malformed nt"):
        _ingest(path, tmp_path / "store", "broken", max_rejects=0)
    assert not (_snapshot(tmp_path / "store", "broken") / "manifest.json").exists()


def test_a_malformed_line_is_set_aside_and_counted(tmp_path):
    path, line = _broken_nt(tmp_path)
    result = _ingest(path, tmp_path / "store", "broken")
    assert result.rejects == 1 and result.rejects_file is not None
    record = msgspec.json.decode(result.rejects_file.read_text().splitlines()[0])
    assert record["line"] == line and record["source"] == str(path)
    assert result.ingest.manifest.counts["statements"] >= 34  # the rest is there


def test_a_malformed_turtle_statement_names_its_line(tmp_path):
    text = SOURCE.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, t in enumerate(text) if t.startswith("s:")) + 1
    text[number] = text[number].replace(";", "; ;; ]", 1)  # a broken predicate list
    path = tmp_path / "broken.ttl"
    path.write_text("".join(text), encoding="utf-8")
    with pytest.raises(InputError, match=rf"broken\.ttl: line {number + 1}: malformed turtle"):
        _ingest(path, tmp_path / "store", "broken", max_rejects=0)


def test_a_truncated_bz2_publishes_nothing(tmp_path):
    data = bz2.compress(SOURCE.read_bytes())
    path = tmp_path / "q.ttl.bz2"
    path.write_bytes(data[: len(data) - 200])
    with pytest.raises(InputError, match=r"q\.ttl\.bz2: .*bzip2"):
        _ingest(path, tmp_path / "store", "cut")
    assert not (_snapshot(tmp_path / "store", "cut") / "manifest.json").exists()
    assert not list((tmp_path / "store" / "rdf").glob("cut.json*"))


def test_an_unknown_syntax_is_refused(tmp_path):
    path = tmp_path / "q.txt"
    shutil.copy(SOURCE, path)
    with pytest.raises(UsageError, match="--format"):
        _ingest(path, tmp_path / "store", "x")


def test_rerun_is_a_no_op_and_cli(tmp_path):
    store = tmp_path / "store"
    args = ["ingest", "rdf", str(SOURCE), "--snapshot", "q", "--date", "2024-04-08"]
    first = run_kgdiff(*args, "--store", str(store))
    assert first.returncode == 0, first.stderr
    assert "published snapshot q" in first.stdout and "110 statements" in first.stdout
    again = run_kgdiff(*args, "--store", str(store))
    assert again.returncode == 0 and "nothing to do" in again.stdout
    other = [a if a != str(SOURCE) else str(RDF_DIR / "Q24628793.ttl") for a in args]
    refused = run_kgdiff(*other, "--store", str(store))
    assert refused.returncode == 5 and "already exists" in refused.stderr
    path, line = _broken_nt(tmp_path)
    failed = run_kgdiff("ingest", "rdf", str(path), "--date", "2024-01-01", "--store",
                        str(store), "--max-rejects", "0")  # fmt: skip
    assert failed.returncode == 3
    assert f"{path}: line {line}: malformed nt" in failed.stderr
    assert len(failed.stderr.strip().splitlines()) == 1


# -- 4. the time conversion is the inverse of the export's ----------------------------------


@st.composite
def wikibase_times(draw: st.DrawFn) -> tuple[str, int, str]:
    """(time, precision, calendar) as Wikidata's JSON holds them: valid dates, no year 0,
    month and day zeroed below their precision."""
    calendar = draw(st.sampled_from([GREGORIAN_QID, JULIAN_QID]))
    precision = draw(st.integers(0, 14))
    year = draw(st.integers(-999_999, 999_999).filter(bool) | st.integers(-3000, 3000).filter(bool))
    month = draw(st.integers(1, 12))
    astronomical = year + 1 if year < 0 else year
    julian = calendar == JULIAN_QID
    day = draw(
        st.integers(1, days_in_month(astronomical, month, "julian" if julian else "gregorian"))
    )
    month, day = (month if precision >= 10 else 0), (day if precision >= 11 else 0)
    sign = "-" if year < 0 else "+"
    return f"{sign}{abs(year):04d}-{month:02d}-{day:02d}T00:00:00Z", precision, calendar


@settings(max_examples=400)
@given(wikibase_times())
def test_time_read_back_from_the_exports_xsd_datetime(value):
    time, precision, calendar = value
    key = time_key(time, precision, calendar)
    parsed = parse_key(key)
    assert parsed is not None
    lexical = xsd_datetime(parsed)
    assert lexical is not None
    calendar_iri = JULIAN if calendar == JULIAN_QID else GREGORIAN
    back = wikibase_time(lexical, precision, calendar_iri)
    assert back is not None and back == time
    assert time_key(back, precision, calendar) == key


def test_a_real_julian_date():
    """Wikibase writes a Julian day-precision date converted to Gregorian: 1 BCE-era and
    medieval values read back to the Julian date (15 October 1582 Gregorian is 5 October
    Julian)."""
    assert wikibase_time("1582-10-15T00:00:00Z", 11, JULIAN) == "+1582-10-05T00:00:00Z"
    assert wikibase_time("-0043-01-01T00:00:00Z", 9, GREGORIAN) == "-0044-00-00T00:00:00Z"
    assert wikibase_time("-13798000000-01-01T00:00:00Z", 3, GREGORIAN) == (
        "-13798000000-00-00T00:00:00Z"
    )
