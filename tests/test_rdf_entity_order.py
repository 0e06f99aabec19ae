"""``kgdiff export rdf`` writes entity by entity: on a real sample snapshot every entity's
triples (and every subject's, but the value nodes entities share) are one run of lines; the
set of triples is what the tables, written one after the other, give; the subject ranges do
not change the file; N-Quads are the same triples in the snapshot's named graph."""

from __future__ import annotations

import logging
from pathlib import Path

import duckdb
import pytest
import rdflib

from kgdiff.export.rdf import ntriples as nt
from kgdiff.export.rdf import triples
from kgdiff.export.rdf.writer import RdfRequest, export_rdf, snapshot_graph
from kgdiff.store.layout import StoreLayout
from kgdiff.store.property_datatypes import property_datatypes

SNAPSHOT = "wd-2014-12"
ABOUT = f"<{nt.SCHEMA}about>"

logging.getLogger("rdflib.term").setLevel(logging.ERROR)  # BCE xsd:dateTime literals


@pytest.fixture(scope="module")
def exported(sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("order") / f"{SNAPSHOT}.nt"
    export_rdf(sample_store, RdfRequest(SNAPSHOT, out))
    return out


def _parts(line: str) -> tuple[str, str, str]:
    subject, predicate, rest = line.split(" ", 2)
    return subject, predicate, rest.removesuffix(" .\n")


def _owner(subject: str, pages: dict[str, str]) -> str | None:
    """The entity a subject belongs to: itself, a statement's entity, a page's; value nodes
    (shared between entities) belong to none."""
    if subject.startswith("<" + nt.WDS):  # older statement ids start with a lower-case id
        return "<" + nt.WD + subject.removeprefix("<" + nt.WDS).split("-", 1)[0].upper() + ">"
    if subject.startswith("<" + nt.WD):
        return subject
    if subject.startswith("<" + nt.WDV):
        return None
    return pages[subject]


def _runs(keys: list[str]) -> dict[str, int]:
    """How many separate runs each key makes in ``keys``."""
    runs: dict[str, int] = {}
    for index, key in enumerate(keys):
        if index == 0 or keys[index - 1] != key:
            runs[key] = runs.get(key, 0) + 1
    return runs


def _split_runs(lines: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Entities and subjects (but value nodes) that make more than one run of lines."""
    pages = {s: o for s, p, o in map(_parts, lines) if p == ABOUT}
    owners: list[str] = []
    for line in lines:
        owner = _owner(_parts(line)[0], pages)
        owners.append(owner if owner is not None else owners[-1])  # a value node: its block's
    # each subject too, but the value nodes (one per entity that names the value)
    subjects = [s for s, _p, _o in map(_parts, lines) if not s.startswith("<" + nt.WDV)]
    split = [{k: n for k, n in _runs(keys).items() if n > 1} for keys in (owners, subjects)]
    return split[0], split[1]


def test_each_entitys_triples_are_one_run(exported):
    lines = exported.read_text(encoding="utf-8").splitlines(keepends=True)
    assert _split_runs(lines) == ({}, {})
    assert len(_runs([_parts(line)[0] for line in lines])) > 1000


def _table_lines(store: Path) -> set[str]:
    """The triples written table by table, the way the export wrote them before it wrote
    entity by entity (the best rank computed here, apart from sql/rdf/statements.sql)."""
    layout = StoreLayout.resolve(store)
    folder = layout.snapshot_dir(SNAPSHOT)
    with duckdb.connect() as connection:
        datatypes = property_datatypes(connection, layout)

        def read(table: str, columns: str) -> list[dict[str, object]]:
            files = f"read_parquet('{folder}/{table}/*.parquet')"
            return list(
                triples.rows(connection.sql(f"SELECT {columns} FROM {files}").to_arrow_table())
            )

        snak = "snaktype, datatype, value_type, value"
        best = (
            "rank = CASE WHEN bool_or(rank = 'preferred') OVER (PARTITION BY subject, pid) "
            "THEN 'preferred' ELSE 'normal' END AS best"
        )
        lines: set[str] = set()
        for row in read("entities", "qid, type, datatype, redirect_to"):
            lines.update(triples.entity_lines(row))
        for row in read("labels", "qid, kind, lang, value"):
            lines.update(triples.label_lines(row))
        for row in read("sitelinks", "qid, site, title, badges"):
            lines.update(triples.sitelink_lines(row))
        for row in read("statements", f"statement_id, subject, pid, rank, {snak}, {best}"):
            lines.update(triples.statement_lines(row, datatypes))
        for row in read("qualifiers", f"statement_id, qualifier_pid, ordinal, {snak}"):
            lines.update(triples.qualifier_lines(row, datatypes))
    return lines


def test_the_triples_are_those_of_the_tables_one_by_one(sample_store, exported):
    written = exported.read_text(encoding="utf-8").splitlines(keepends=True)
    assert set(written) == _table_lines(sample_store)
    assert len(written) > 500_000


def test_small_subject_ranges_give_the_same_file(sample_store, exported, tmp_path):
    out = tmp_path / "ranges.nt"
    export_rdf(sample_store, RdfRequest(SNAPSHOT, out, range_entities=97))
    assert out.read_bytes() == exported.read_bytes()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # rdflib's own parsers
def test_n_quads_are_the_triples_in_the_snapshots_graph(sample_store, exported, tmp_path):
    out = tmp_path / "q8.nq"
    export_rdf(sample_store, RdfRequest(SNAPSHOT, out, format="nq", entities=["Q8", "Q31"]))
    dataset = rdflib.Dataset()
    dataset.parse(out, format="nquads")
    graphs = {str(g.identifier) for g in dataset.graphs() if len(g)}
    assert graphs == {snapshot_graph(SNAPSHOT)[1:-1]}
    quads = out.read_text(encoding="utf-8").splitlines()
    triples_only = [line.rsplit(" ", 2)[0] + " .\n" for line in quads]
    assert _split_runs(triples_only) == ({}, {})
    every = set(exported.read_text(encoding="utf-8").splitlines(keepends=True))
    assert set(triples_only) <= every
    mine = {line for line in every if "/Q8>" in line.split(" ", 1)[0]}
    assert mine and mine <= set(triples_only)
