"""``kgdiff export rdf --classification``: the classification in kgdiff's vocabulary beside
the snapshots it reads, each in its named graph (N-Quads, TriG). On the sample snapshots with
synthetic Wikipedia evidence: a group node per group of ``kgdiff classify`` (per level, for
both modes); a SPARQL query finds the evolved groups and their outdated objects; PROV links
exactly where the classification has an evidence revision; clear one-line errors."""

from __future__ import annotations

import logging
import shutil
import warnings
from collections import Counter
from pathlib import Path

import polars as pl
import pytest
import rdflib
from rdflib import RDF, URIRef

from kgdiff.export.rdf.classification import ClassificationTerms, snapshot_graph
from kgdiff.export.rdf.writer import RdfRequest, export_rdf
from kgdiff.query.graph import KnowledgeGraph
from tests.paths import run_kgdiff
from tests.test_evidence import add_wikipedia

INIT, CUTOFF, CURRENT = "2013-12-21", "2014-10-11", "2014-12-31"
DATES = f"{INIT},{CUTOFF},{CURRENT}"
KG = "https://kgdiff.org/ns#"
WD = "http://www.wikidata.org/entity/"
PROV = URIRef("http://www.w3.org/ns/prov#wasDerivedFrom")
SNAPSHOTS = ("wd-2013-12", "wd-2014-10", "wd-2014-12")
ENTITIES = ["Q298", "Q1", "Q100", "Q8"]

logging.getLogger("rdflib.term").setLevel(logging.ERROR)  # BCE xsd:dateTime literals


@pytest.fixture(scope="module")
def store(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample snapshots and two synthetic Wikipedia snapshots with their evidence."""
    target = tmp_path_factory.mktemp("rdf-classified") / "store"
    shutil.copytree(sample_store, target)
    for name in ("enwiki-2013-12", "enwiki-2014-10"):
        add_wikipedia(target, target.parent, name)
    return target


def _classify(store: Path, mode: str, subjects: list[str] | None = None) -> pl.DataFrame:
    graph = KnowledgeGraph.open(store)
    try:
        return graph.classify(CUTOFF, INIT, CURRENT, mode=mode, subject=subjects)
    finally:
        graph.close()


@pytest.fixture(scope="module")
def record_rows(store: Path) -> pl.DataFrame:
    """``kgdiff classify``'s groups in record time (asked once: three tests compare them)."""
    return _classify(store, "record")


@pytest.fixture(scope="module")
def quads(store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("nq") / "classified.nq"
    export_rdf(store, RdfRequest(None, out, "nq", classification=DATES))
    return out


def _graph_of(line: str) -> str:
    return line.rstrip(" .\n").rsplit(" ", 1)[1]


@pytest.fixture(scope="module")
def graphs(quads: Path) -> tuple[Counter[str], str]:
    """How many quads each named graph of the N-Quads holds, and the classification's
    graph's lines: one pass over the export's lines (two tests each made their own)."""
    name = ClassificationTerms(INIT, CUTOFF, CURRENT, "record").graph
    counts: Counter[str] = Counter()
    kept = []
    with quads.open(encoding="utf-8") as lines:
        for line in lines:
            graph = _graph_of(line)
            counts[graph] += 1
            if graph == name:
                kept.append(line)
    return counts, "".join(kept)


@pytest.fixture(scope="module")
def classified(graphs: tuple[Counter[str], str]) -> rdflib.Graph:
    """The classification's graph of the N-Quads, parsed by rdflib."""
    name = ClassificationTerms(INIT, CUTOFF, CURRENT, "record").graph
    dataset = rdflib.Dataset()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        dataset.parse(data=graphs[1], format="nquads")
    return dataset.graph(URIRef(name[1:-1]))


def _levels(graph: rdflib.Graph) -> Counter[str]:
    groups = graph.subjects(RDF.type, URIRef(KG + "Group"))
    return Counter(str(graph.value(g, URIRef(KG + "level"))).removeprefix(KG) for g in groups)


def test_one_named_graph_per_snapshot_and_one_for_the_classification(graphs):
    counts, _ = graphs
    expected = {snapshot_graph(name) for name in SNAPSHOTS}
    expected.add(ClassificationTerms(INIT, CUTOFF, CURRENT, "record").graph)
    assert set(counts) == expected
    assert min(counts.values()) > 100_000


def test_a_group_node_per_group_of_each_level(record_rows, classified):
    rows = record_rows
    assert _levels(classified) == Counter(dict(rows["level"].value_counts().iter_rows()))
    assert {"stable", "evolved", "not_covered"} <= set(rows["level"])


EVOLVED = """
PREFIX kgdiff: <https://kgdiff.org/ns#>
SELECT ?subject ?property ?outdated WHERE {
    ?group a kgdiff:Group ; kgdiff:level kgdiff:evolved ;
           kgdiff:subject ?subject ; kgdiff:property ?property .
    OPTIONAL { ?group kgdiff:outdated ?outdated }
}
"""


def _id(term: object) -> str:
    return str(term).removeprefix(WD)


def test_sparql_finds_the_evolved_groups_and_their_outdated_objects(record_rows, classified):
    found: dict[tuple[str, str], set[str]] = {}
    for subject, prop, outdated in classified.query(EVOLVED):
        values = found.setdefault((_id(subject), _id(prop)), set())
        if outdated is not None:
            values.add(_id(outdated))
    evolved = record_rows.filter(pl.col("level") == "evolved")
    expected = {(r["subject"], r["pid"]): set(r["outdated"]) for r in evolved.iter_rows(named=True)}
    assert found == expected
    assert len(expected) > 50 and any(expected.values())


def test_prov_links_exactly_where_the_classification_has_evidence(record_rows, classified):
    rows = record_rows.filter(pl.col("evidence").is_not_null())
    expected = {
        (
            r["subject"],
            r["pid"],
        ): f"https://en.wikipedia.org/w/index.php?oldid={r['evidence']['revision_id']}"
        for r in rows.iter_rows(named=True)
        if r["evidence"]["revision_id"] is not None
    }
    linked = {}
    for group, revision in classified.subject_objects(PROV):
        key = (
            _id(classified.value(group, URIRef(KG + "subject"))),
            _id(classified.value(group, URIRef(KG + "property"))),
        )
        linked[key] = str(revision)
    assert linked == expected
    assert len(expected) > 0


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # rdflib's own parsers
def test_trig_of_a_few_entities_in_valid_time(store, tmp_path):
    out = tmp_path / "few.trig"
    export_rdf(
        store,
        RdfRequest(None, out, "trig", ENTITIES, classification=DATES, mode="valid"),
    )
    dataset = rdflib.Dataset()
    dataset.parse(out, format="trig")
    graphs = {str(g.identifier): g for g in dataset.graphs() if len(g)}
    name = ClassificationTerms(INIT, CUTOFF, CURRENT, "valid").graph[1:-1]
    assert name in graphs
    rows = _classify(store, "valid", ENTITIES)
    assert _levels(graphs[name]) == Counter(dict(rows["level"].value_counts().iter_rows()))
    item = URIRef("http://wikiba.se/ontology#Item")
    items = {_id(s) for g in graphs.values() for s in g.subjects(RDF.type, item)}
    assert items == set(ENTITIES)
    # valid time reads the latest snapshot only (docs/classification.md): its graph, and
    # the classification's
    assert set(graphs) == {name, snapshot_graph("wd-2014-12")[1:-1]}


def test_one_line_errors_and_nothing_written(store, tmp_path):
    export = ["export", "rdf", "--store", str(store)]
    args = [*export, "--out", str(tmp_path / "x.nt")]
    for fmt in ("nt", "ttl"):
        out = ["--out", str(tmp_path / f"x.{fmt}"), "--format", fmt]
        done = run_kgdiff(*export, *out, "--entities", "Q8", "--classification", DATES)
        assert done.returncode == 2 and done.stderr.strip().count("\n") == 0
        assert "use --format nq or --format trig" in done.stderr
    for dates, says in (
        ("2013-12-21,2014-13-01,2014-12-31", "the cutoff date '2014-13-01' is not a date"),
        ("2014-12-31,2014-10-11,2013-12-21", "init < cutoff < current"),
        ("2014-10-11", "three dates INIT,CUTOFF,CURRENT"),
    ):
        quads = ["--out", str(tmp_path / "x.nq"), "--format", "nq"]
        done = run_kgdiff(*export, *quads, "--classification", dates)
        assert done.returncode == 2 and says in done.stderr, done.stderr
        assert done.stderr.strip().count("\n") == 0
    done = run_kgdiff(*args, "--snapshot", "wd-2013-12,wd-2014-12")
    assert done.returncode == 2 and "use --format nq or trig" in done.stderr
    assert list(tmp_path.iterdir()) == []
