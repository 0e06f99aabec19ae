"""A classification as RDF in kgdiff's own vocabulary (``kgdiff:``, docs/rdf.md).

One ``kgdiff:Group`` node per (subject, property) group: its level, change kind, dates, the
snapshots (named graphs) it read, its latest and outdated objects, the entity and property
it is about, and, where the store's evidence has a Wikipedia revision for it, a
``prov:wasDerivedFrom`` that revision. The groups link to one ``kgdiff:Classification`` node
with the dates and mode. Rows are read from the build in Arrow batches (bounded memory).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from kgdiff import wikibase_rdf as vocab
from kgdiff.evidence.supported import evidence_wiki
from kgdiff.export.rdf import ntriples as nt
from kgdiff.export.rdf.sites import site_of
from kgdiff.export.rdf.triples import rows
from kgdiff.query.classified import GroupChoice, export_source
from kgdiff.sqlfiles import load_sql
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.builds import Build

PROV_DERIVED = f"<{vocab.PROV_DERIVED}>"
XSD_DATE = nt.XSD + "date"
BATCH_ROWS = 20_000
_ENTITY_ID = re.compile(r"[QPL][1-9]\d*")


def k(name: str) -> str:
    """A term of kgdiff's vocabulary, e.g. ``k("Group")``."""
    return f"<{nt.KGDIFF}{name}>"


def snapshot_graph(snapshot: str) -> str:
    """The named graph of a snapshot's triples (N-Quads, TriG)."""
    return nt.iri(nt.KGDIFF_GRAPH + "snapshot/" + snapshot)


@dataclass(frozen=True)
class ClassificationTerms:
    """The IRIs of one classification: its node, its graph, and its groups' prefix."""

    init: str
    cutoff: str
    current: str
    mode: str

    @property
    def path(self) -> str:
        return f"{self.mode}/{self.init}/{self.cutoff}/{self.current}"

    @property
    def node(self) -> str:
        """The ``kgdiff:Classification`` node."""
        return nt.iri(f"https://kgdiff.org/classification/{self.path}")

    @property
    def graph(self) -> str:
        """The named graph its triples are written in."""
        return nt.iri(f"{nt.KGDIFF_GRAPH}classification/{self.path}")

    def group(self, subject: str, pid: str) -> str:
        """The node of one (subject, property) group."""
        return nt.iri(f"https://kgdiff.org/classification/{self.path}/{subject}/{pid}")


def value_term(value: str) -> str:
    """An object as the classification names it: an entity id as ``wd:``, else a literal."""
    return nt.entity(value) if _ENTITY_ID.fullmatch(value) else nt.plain(value)


def revision_iri(host: str, revision_id: int) -> str:
    """The IRI of one revision of a wiki page (a permanent link)."""
    return nt.iri(f"https://{host}/w/index.php?oldid={revision_id}")


def header_lines(terms: ClassificationTerms) -> Iterator[str]:
    """The ``kgdiff:Classification`` node: its dates and mode."""
    node = terms.node
    yield nt.line(node, nt.RDF_TYPE, k("Classification"))
    for name, day in (("init", terms.init), ("cutoff", terms.cutoff), ("current", terms.current)):
        yield nt.line(node, k(f"{name}Date"), nt.typed(day, XSD_DATE))
    yield nt.line(node, k("mode"), nt.plain(terms.mode))


def group_lines(
    row: Mapping[str, Any], terms: ClassificationTerms, host: str | None
) -> Iterator[str]:
    """The triples of one group's node (``host``: the wiki of its evidence, if any)."""
    node = terms.group(row["subject"], row["pid"])
    yield nt.line(node, nt.RDF_TYPE, k("Group"))
    yield nt.line(node, k("classification"), terms.node)
    yield nt.line(node, k("subject"), nt.entity(row["subject"]))
    yield nt.line(node, k("property"), nt.entity(row["pid"]))
    yield nt.line(node, k("level"), k(row["level"]))
    if row.get("change_kind"):
        yield nt.line(node, k("changeKind"), k(row["change_kind"]))
    if row.get("changed_after_cutoff") is not None:
        flag = "true" if row["changed_after_cutoff"] else "false"
        yield nt.line(node, k("changedAfterCutoff"), nt.typed(flag, nt.XSD + "boolean"))
    for name, day in (("init", terms.init), ("cutoff", terms.cutoff), ("current", terms.current)):
        yield nt.line(node, k(f"{name}Date"), nt.typed(day, XSD_DATE))
        if row.get(f"{name}_snapshot"):
            yield nt.line(node, k(f"{name}Snapshot"), snapshot_graph(row[f"{name}_snapshot"]))
    for kind in ("latest", "outdated"):
        for value in row.get(kind) or ():
            yield nt.line(node, k(kind), value_term(value))
    evidence = row.get("evidence")
    if host and evidence and evidence.get("revision_id") is not None:
        yield nt.line(node, PROV_DERIVED, revision_iri(host, int(evidence["revision_id"])))


def _evidence_host(layout: StoreLayout) -> str | None:
    wiki = evidence_wiki(layout)
    site = site_of(wiki) if wiki else None
    return site.host if site else None


def classification_lines(
    layout: StoreLayout, build: Build, entities: list[str] | None
) -> Iterator[str]:
    """Every triple of the classification (only the groups of ``entities``, if given)."""
    p = build.params
    terms = ClassificationTerms(p.init, p.cutoff, p.current, p.mode)
    host = _evidence_host(layout)
    yield from header_lines(terms)
    choice = GroupChoice(subjects=entities or [])
    with export_source(layout, build) as connection:
        chosen = connection.sql(load_sql("classify/export_chosen"), params=choice.values())
        for batch in chosen.to_arrow_reader(BATCH_ROWS):
            for row in rows(batch):
                yield from group_lines(row, terms, host)
