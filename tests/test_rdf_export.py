"""``kgdiff export rdf`` on the real sample store: the N-Triples parse, every statement has its
node, the truthy ``wdt:`` triples follow Wikidata's best-rank rule, and an entity that is also
in a real Wikidata RDF file is written as Wikidata writes it."""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
import rdflib
from rdflib import RDF, URIRef
from rdflib.plugins.parsers.ntriples import DummySink, W3CNTriplesParser
from rdflib.term import Node

from kgdiff.export.rdf import ntriples as nt
from kgdiff.export.rdf.times import parse_key, xsd_datetime
from kgdiff.export.rdf.triples import datatype_name
from kgdiff.export.rdf.values import simple_value
from kgdiff.export.rdf.writer import RdfRequest, export_rdf
from tests.paths import DATA, run_kgdiff

SNAPSHOT = "wd-2014-12"
WD = "http://www.wikidata.org/entity/"
PROP = "http://www.wikidata.org/prop/"
WDT = PROP + "direct/"
PS = PROP + "statement/"
WIKIBASE = "http://wikiba.se/ontology#"
STATEMENT = URIRef(WIKIBASE + "Statement")
BEST = URIRef(WIKIBASE + "BestRank")
REAL_RDF = DATA / "rdf" / "small_dump_chunk.ttl"
"""Wikidata's own RDF of Q8 and Q31 (2019-2020), both also in the sample snapshots."""


def _qid(term: object) -> str:
    return str(term).removeprefix(WD)


@pytest.fixture(scope="module")
def store(sample_store: Path) -> Path:
    return sample_store


class ParsedTriples(DummySink):
    """The triples of an N-Triples file as rdflib's N-Triples parser reads them (the parser
    ``rdflib.Graph.parse(format="nt")`` runs), a set as a Graph holds them, indexed by
    subject and by object for the few questions the tests ask: a Graph's three indexes of
    the export's 560,000 triples took half the parse's 15 CPU-s."""

    def __init__(self, path: Path) -> None:
        super().__init__()  # type: ignore[no-untyped-call]
        self.triples: set[tuple[Node, Node, Node]] = set()
        with path.open("rb") as lines:
            W3CNTriplesParser(self).parse(lines)
        self.by_subject: dict[Node, list[tuple[Node, Node]]] = defaultdict(list)
        self.by_object: dict[Node, list[tuple[Node, Node]]] = defaultdict(list)
        for subject, predicate, obj in self.triples:
            self.by_subject[subject].append((predicate, obj))
            self.by_object[obj].append((subject, predicate))

    def triple(self, subject: Node, predicate: Node, obj: Node) -> None:
        """The parser's sink: one triple read."""
        self.triples.add((subject, predicate, obj))

    def __iter__(self) -> Iterator[tuple[Node, Node, Node]]:
        return iter(self.triples)

    def subjects(self, predicate: Node, obj: Node) -> list[Node]:
        return [s for s, p in self.by_object.get(obj, ()) if p == predicate]

    def objects(self, subject: Node, predicate: Node) -> list[Node]:
        return [o for p, o in self.by_subject.get(subject, ()) if p == predicate]

    def predicate_objects(self, subject: Node) -> list[tuple[Node, Node]]:
        return list(self.by_subject.get(subject, ()))

    def subject_predicates(self, obj: Node) -> list[tuple[Node, Node]]:
        return list(self.by_object.get(obj, ()))


@pytest.fixture(scope="module")
def graph(store: Path, tmp_path_factory: pytest.TempPathFactory) -> ParsedTriples:
    """The whole export of one sample snapshot, parsed by rdflib's N-Triples parser."""
    out = tmp_path_factory.mktemp("rdf") / f"{SNAPSHOT}.nt"
    done = export_rdf(store, RdfRequest(SNAPSHOT, out))
    assert done.triples > 0 and out.is_file()
    # rdflib warns, per literal, that Python cannot hold BCE xsd:dateTime values (it keeps
    # their lexical form, which is valid XSD 1.1)
    logging.getLogger("rdflib.term").setLevel(logging.ERROR)
    return ParsedTriples(out)


@pytest.fixture(scope="module")
def connection(store: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as opened:
        yield opened


def _statement_nodes(graph: ParsedTriples) -> dict[str, set[str]]:
    """Per entity, its statement nodes (``wd:Q p:P s:…`` with ``s:…`` a wikibase:Statement)."""
    statements = set(graph.subjects(RDF.type, STATEMENT))
    nodes: dict[str, set[str]] = defaultdict(set)
    for subject, predicate, obj in graph:
        if (
            obj in statements
            and str(predicate).startswith(PROP)
            and "/" not in str(predicate).removeprefix(PROP)
        ):
            nodes[_qid(subject)].add(str(obj))
    return nodes


def test_statement_nodes_per_entity_equal_the_stores_statements(graph, connection):
    rows = connection.execute(
        "SELECT subject, count(DISTINCT statement_id) FROM statements "
        "WHERE snapshot = ? GROUP BY subject",
        [SNAPSHOT],
    ).fetchall()
    expected = dict(rows)
    counted = {qid: len(nodes) for qid, nodes in _statement_nodes(graph).items()}
    assert counted == expected
    assert sum(expected.values()) > 10_000


def _best_statements(connection: duckdb.DuckDBPyConnection) -> set[str]:
    """Wikidata's rule, written apart from sql/rdf/statements.sql: per (subject, pid), the
    preferred statements if there are any, else the normal ones; never deprecated."""
    rows = connection.execute(
        """
        SELECT s.statement_id FROM statements AS s
        WHERE s.snapshot = $snapshot AND s.rank = (
            SELECT CASE WHEN count(*) FILTER (WHERE o.rank = 'preferred') > 0
                        THEN 'preferred' ELSE 'normal' END
            FROM statements AS o
            WHERE o.snapshot = s.snapshot AND o.subject = s.subject AND o.pid = s.pid)
        """,
        {"snapshot": SNAPSHOT},
    ).fetchall()
    return {statement_id for (statement_id,) in rows}


def _node_name(statement_id: str) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c in "_-") else "-" for c in statement_id)


def test_best_rank_statements_follow_wikidatas_rule(graph, connection):
    best = {str(node).rsplit("/", 1)[1] for node in graph.subjects(RDF.type, BEST)}
    expected = {_node_name(statement_id) for statement_id in _best_statements(connection)}
    assert best == expected
    # the samples hold both ranks that make the rule matter
    ranks = dict(
        connection.execute(
            "SELECT rank, count(*) FROM statements WHERE snapshot = ? GROUP BY rank", [SNAPSHOT]
        ).fetchall()
    )
    assert ranks.get("preferred", 0) > 0 and ranks.get("deprecated", 0) > 0


def _truthy_from_statements(graph: ParsedTriples) -> set[tuple[object, ...]]:
    """(entity, wdt:P, value) as the best-ranked statements' main values imply it."""
    implied: set[tuple[object, ...]] = set()
    for node in graph.subjects(RDF.type, BEST):
        entity = next(s for s, p in graph.subject_predicates(node) if str(p).startswith(PROP))
        for predicate, obj in graph.predicate_objects(node):
            if str(predicate).startswith(PS) and "/" not in str(predicate).removeprefix(PS):
                implied.add((entity, URIRef(WDT + str(predicate).removeprefix(PS)), obj))
    return implied


def test_wdt_triples_are_the_best_ranked_values(graph):
    truthy = {(s, p, o) for s, p, o in graph if str(p).startswith(WDT)}
    assert truthy == _truthy_from_statements(graph)
    assert len(truthy) > 10_000


def _real_graph() -> rdflib.Graph:
    real = rdflib.Graph()
    real.parse(REAL_RDF, format="turtle")
    return real


def test_wdt_triples_equal_wikidatas_own_for_the_properties_both_hold(graph):
    real = _real_graph()
    for qid in ("Q8", "Q31"):
        entity = URIRef(WD + qid)
        ours = {(p, o) for p, o in graph.predicate_objects(entity) if str(p).startswith(WDT)}
        theirs = {(p, o) for p, o in real.predicate_objects(entity) if str(p).startswith(WDT)}
        both = {p for p, _ in ours} & {p for p, _ in theirs}
        assert {t for t in ours if t[0] in both} == {t for t in theirs if t[0] in both}
    # An honest note on the size of that check: Wikidata's file (2019-2020) holds one wdt:
    # triple of these entities, Q8's P576 (an unknown value), a property Q8 did not have in
    # December 2014; so the common properties are none, and the statement the two share is
    # compared node by node below instead.


def test_a_statement_and_a_sitelink_are_written_as_wikidata_writes_them(graph):
    real = _real_graph()
    node = URIRef(WD + "statement/Q8-63214A9F-B2C8-42F9-8DA0-B046A989DDCF")
    entity = URIRef(WD + "Q8")
    for predicate in ("p", "statement"):
        kind = URIRef(f"{PROP}{predicate + '/' if predicate == 'statement' else ''}P646")
        assert set(graph.objects(entity if predicate == "p" else node, kind)) == set(
            real.objects(entity if predicate == "p" else node, kind)
        )
    # rank, type and best rank; the file's psn: (a normalised form) and reference are not
    # written by the export (the store keeps no references)
    assert set(graph.objects(node, RDF.type)) == set(real.objects(node, RDF.type))
    assert set(graph.objects(node, URIRef(WIKIBASE + "rank"))) == set(
        real.objects(node, URIRef(WIKIBASE + "rank"))
    )
    page = URIRef("https://it.wikivoyage.org/wiki/Belgio")
    assert set(graph.predicate_objects(page)) == set(real.predicate_objects(page))


def test_turtle_of_a_few_entities_and_one_line_errors(store, tmp_path):
    out = tmp_path / "q8.ttl"
    args = ["export", "rdf", "--snapshot", SNAPSHOT, "--store", str(store)]
    done = run_kgdiff(*args, "--format", "ttl", "--entities", "Q8", "--out", str(out))
    assert done.returncode == 0, done.stderr
    parsed = rdflib.Graph()
    parsed.parse(out, format="turtle")
    assert {_qid(s) for s in parsed.subjects(RDF.type, URIRef(WIKIBASE + "Item"))} == {"Q8"}
    refused = run_kgdiff(*args, "--format", "ttl", "--out", str(tmp_path / "all.ttl"))
    assert refused.returncode == 2
    assert refused.stderr.strip().count("\n") == 0 and "--entities" in refused.stderr
    unknown = run_kgdiff(*args, "--entities", "Q8,Q999999999", "--out", str(tmp_path / "x.nt"))
    assert unknown.returncode == 2 and "Q999999999" in unknown.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == ["q8.ttl"]


def test_truthy_export_holds_the_same_wdt_triples_and_no_statement_nodes(graph, store, tmp_path):
    out = tmp_path / "truthy.nt"
    export_rdf(store, RdfRequest(SNAPSHOT, out, entities=["Q8", "Q31"], truthy=True))
    truthy = rdflib.Graph().parse(out, format="nt")
    entities = {URIRef(WD + "Q8"), URIRef(WD + "Q31")}
    assert {t for t in truthy if str(t[1]).startswith(WDT)} == {
        (entity, p, o)
        for entity in entities
        for p, o in graph.predicate_objects(entity)
        if str(p).startswith(WDT)
    }
    assert not set(truthy.subjects(RDF.type, STATEMENT))


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        # year precision: month and day are 01, as Wikibase's RDF writes them
        ("+1952-00-00T00:00:00Z|9|Q1985727", "1952-01-01T00:00:00Z"),
        ("+1887-07-00T00:00:00Z|10|Q1985727", "1887-07-01T00:00:00Z"),
        # XSD 1.1: 44 BCE is year -43 at year precision or finer, not coarser
        ("-0044-03-15T00:00:00Z|11|Q1985727", "-0043-03-15T00:00:00Z"),
        ("-13798000000-00-00T00:00:00Z|2|Q1985727", "-13798000000-01-01T00:00:00Z"),
        # a Julian day is converted to the Gregorian calendar (Newton's birth); a Julian
        # year is not (nothing to convert)
        ("+1642-12-25T00:00:00Z|11|Q1985786", "1643-01-04T00:00:00Z"),
        ("+1642-00-00T00:00:00Z|9|Q1985786", "1642-01-01T00:00:00Z"),
        # a day past the month's end is clamped; year 0 has no RDF form
        ("+2023-02-30T00:00:00Z|11|Q1985727", "2023-02-28T00:00:00Z"),
        ("+0000-00-00T00:00:00Z|9|Q1985727", None),
    ],
)
def test_time_values_as_wikibase_writes_them(key, expected):
    parsed = parse_key(key)
    assert parsed is not None
    assert xsd_datetime(parsed) == expected


def test_terms_are_escaped_for_n_triples():
    assert nt.plain('a "b"\\\nc\r') == '"a \\"b\\"\\\\\\nc\\r"'
    assert nt.iri("http://example.org/a b<c>") == "<http://example.org/a%20b%3Cc%3E>"
    assert nt.tagged("x", "zh-hans") == '"x"@zh-Hans'
    assert nt.tagged("x", "en-gb") == '"x"@en-GB'
    assert nt.tagged("x", "not a code") == '"x"'
    parsed = rdflib.Graph().parse(
        data=nt.line(nt.entity("Q1"), nt.RDFS_LABEL, nt.plain('a "b"\\\nc')), format="nt"
    )
    assert {str(o) for o in parsed.objects()} == {'a "b"\\\nc'}


def test_numbers_as_wikibase_writes_them():
    assert simple_value(None, "globecoordinate", "8.0,39.0,Q2") == (
        '"Point(39 8)"^^<http://www.opengis.net/ont/geosparql#wktLiteral>'
    )
    assert simple_value(None, "globecoordinate", "1e-05,-71.5,Q405") == (
        '"<http://www.wikidata.org/entity/Q405> Point(-71.5 0.00001)"'
        "^^<http://www.opengis.net/ont/geosparql#wktLiteral>"
    )
    assert simple_value(None, "quantity", "+8848|Q11573") == (
        '"+8848"^^<http://www.w3.org/2001/XMLSchema#decimal>'
    )
    assert simple_value("commonsMedia", "string", "A b.jpg") == (
        "<http://commons.wikimedia.org/wiki/Special:FilePath/A%20b.jpg>"
    )


def test_properties_name_their_type_and_predicates(graph):
    p31 = URIRef(WD + "P31")
    assert URIRef(WIKIBASE + "WikibaseItem") in set(
        graph.objects(p31, URIRef(WIKIBASE + "propertyType"))
    )
    assert set(graph.objects(p31, URIRef(WIKIBASE + "directClaim"))) == {URIRef(WDT + "P31")}
    assert datatype_name("external-id") == "ExternalId"
    assert datatype_name("commonsMedia") == "CommonsMedia"
