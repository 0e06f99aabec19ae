"""What the audit reads from the store an export was made from: whether it is still that
store (its fingerprint), the classes of the items among the options, and which groups
Wikipedia ``supported``."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

import polars as pl

from kgdiff.errors import KgdiffError
from kgdiff.evidence.supported import evidence_wiki
from kgdiff.export.audit.item_kinds import StoreItems, read_store_items
from kgdiff.query.classified import export_source
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.query.lookup import store_tag
from kgdiff.sqlfiles import load_sql
from kgdiff.temporal.dates import GapPolicy


@dataclass
class StoreView:
    """The store the audit reads, and what it says of the store."""

    kg: KnowledgeGraph
    build: dict[str, Any]
    notes: list[str] = field(default_factory=list)

    def facts(self) -> dict[str, Any]:
        """The store as the report names it: its fingerprint and the export's."""
        with self.kg.connection() as connection:
            tag = store_tag(connection)
        exported = self.build.get("store", {}).get("fingerprint")
        if exported and exported != tag:
            self.notes.append(
                f"the store {self.kg.layout.root} (fingerprint {tag}) is not the one the export"
                f" was made from ({exported}): item classes and `supported` are read from it"
                " all the same; give --store the export's store to audit it as made"
            )
        return {
            "fingerprint": tag,
            "export_fingerprint": exported,
        }

    def items(
        self,
        lang: str,
        texts: pl.Series,
        gold: pl.Series,
        subjects: pl.Series | None = None,
        pids: pl.Series | None = None,
    ) -> StoreItems:
        """The labels, classes, roles and properties of the items the distractors name, the
        roles of the people of the properties ``pids``, what the ``subjects`` hold of them."""
        with self.kg.connection() as connection:
            return read_store_items(connection, lang, texts, gold, subjects, pids)

    def supported_groups(self) -> pl.DataFrame | None:
        """``subject``, ``pid``, ``supported`` of the export's classification; None when the
        store has no evidence or the export names no dates."""
        parameters = self.build.get("parameters", {})
        if evidence_wiki(self.kg.layout) is None or "cutoff" not in parameters:
            return None
        try:
            build = self.kg.answers.classification(
                date.fromisoformat(parameters["cutoff"]),
                date.fromisoformat(parameters["init"]),
                date.fromisoformat(parameters["current"]),
                parameters.get("mode", "record"),
                GapPolicy(parameters.get("max_gap", 31), bool(parameters.get("allow_gap"))),
            )
        except (KgdiffError, KeyError, ValueError) as exc:
            self.notes.append(
                f"`supported` not read: the export's classification cannot be had ({exc})"
            )
            return None
        with export_source(self.kg.layout, build) as connection:
            table = connection.execute(load_sql("export/audit_supported")).to_arrow_table()
        frame = pl.from_arrow(table)
        assert isinstance(frame, pl.DataFrame)
        return frame
