"""Multi-hop chains valid at a reference date (sql/chains/chains.sql, docs/questions.md).

A chain (s1, p1, o1), (o1, p2, o2), ... is read in record time from the latest
snapshot at or before the date; a date the snapshots cannot answer (more than
``max_gap`` days after the latest snapshot, or before the first) is refused unless
the gap is allowed (:mod:`kgdiff.temporal.dates`). Which property may follow which
comes from a relation map, ``{"P36": ["P6", "P17"], ...}`` (its keys are the allowed first
properties): by default the ``next_hops`` of the relation catalogue
(``kgdiff/data/relation_catalogue.toml``, :mod:`kgdiff.export.relations.catalogue`), or a JSON file
of that shape the caller gives. Like the classification, the SQL reads the views
``snapshots``, ``statements`` and ``labels`` of the connection it is given, and the
macros ``date_reads`` and ``entity_labels``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

import duckdb
import msgspec

from kgdiff.errors import UsageError
from kgdiff.ids import DEFAULT_LANG
from kgdiff.resources import data_text
from kgdiff.sqlfiles import as_table_macro, load_sql, quote, staged_as_one, used_params
from kgdiff.store.layout import StoreLayout
from kgdiff.store.optimizers import optimizers_off
from kgdiff.temporal.dates import DEFAULT_MAX_GAP, DateRead, GapPolicy, check_answerable
from kgdiff.temporal.parts import PAST_EVERY_SUBJECT, latest_ranges
from kgdiff.temporal.writers import write_relation

DEFAULT_HOPS = 3
PARAMS = [
    "ref_date",
    "subjects",
    "max_hops",
    "relations",
    "first_pids",
    "max_gap",
    "allow_gap",
    "lang",
]
ITEM_ID = re.compile(r"Q[1-9][0-9]*")
PROPERTY_ID = re.compile(r"P[1-9][0-9]*")
RESULTS = "chain_results"
"""The temporary table :func:`stage_chains` fills (one per connection)."""
EDGES = "chains/chain_edges"
WALK = "chains/chain_walk"
STAGES = (
    "chains/chain_reading",
    EDGES,
    WALK,
    "chains/chain_names",
    "chains/chain_hop_starts",
    "chains/chain_aliases",
)
"""The statements ahead of ``sql/chains/chains.sql``, each read by the next as a relation named
after it: :func:`stage_chains` keeps each in a temporary table, so that each spills within
DuckDB's limit (as one query, the chains of 3 × 50 M statements ran out of 1 GB)."""

WALK_PLANNER = ("build_side_probe_side",)
"""Optimizers off while the walk runs: DuckDB otherwise builds the recursive join's hash
table on every hop (`chain_edges`) rather than on the chains walked, and at 3 × 200 M
statements (8.9 M hops) that ran out of an export's 1 GB; built on the walk, every stage
fits it (bench/README.md)."""

RANGE_STATEMENTS = 20_000_000
"""Statements of the latest snapshot whose subjects' hops are found, and whose chains are
labelled, at a time (sql/chains/chain_edges.sql: its ordered aggregates do not spill; every
subject at once took DuckDB's 2.7 GB at 3 × 100 M statements and ran out of it at 3 × 200 M,
as the labelling of every chain did)."""
EVERY_SUBJECT = {"subject_from": "''", "subject_to": quote(PAST_EVERY_SUBJECT), "first_edge": "0"}
"""The range parameters as literals for every subject at once, the hops numbered from 1 (the
catalog macro, a streamed search)."""

Relations = dict[str, list[str]]
CATALOGUE = "relation_catalogue.toml"
"""The relation catalogue in ``kgdiff/data/``, whose ``next_hops`` are the default map."""


def check_relations(data: Relations, source: str) -> Relations:
    """``data`` when every key and next hop is a property id and it is not empty."""
    for pid, following in data.items():
        bad = [p for p in [pid, *following] if not PROPERTY_ID.fullmatch(p)]
        if bad:
            raise UsageError(f"{source}: {bad[0]!r} is not a property id like P36")
    if not data:
        raise UsageError(f"{source}: the relation map is empty")
    return data


def parse_relations(text: str, source: str) -> Relations:
    """A relation map from JSON text: an object mapping a pid to its allowed next pids."""
    try:
        data = msgspec.json.decode(text, type=dict[str, list[str]])
    except msgspec.ValidationError as exc:
        raise UsageError(f'{source}: expected {{"P36": ["P6", ...], ...}} ({exc})') from exc
    except msgspec.DecodeError as exc:
        raise UsageError(f"{source}: not valid JSON ({exc})") from exc
    return check_relations(data, source)


@cache
def _catalogue_hops() -> tuple[tuple[str, tuple[str, ...]], ...]:
    # read here with tomllib, not through kgdiff.export (a layer above this one); the
    # export's loader checks every field of the same file (tests/test_relation_catalogue.py)
    tables = tomllib.loads(data_text(CATALOGUE))
    return tuple(
        (pid, tuple(table["next_hops"]))
        for pid, table in tables.items()
        if isinstance(table, dict) and table.get("next_hops")
    )


def default_relations() -> Relations:
    """The relation map of the shipped relation catalogue: each relation that has next hops,
    in the catalogue's order (a fresh copy the caller may change)."""
    data = {pid: list(following) for pid, following in _catalogue_hops()}
    return check_relations(data, f"kgdiff/data/{CATALOGUE}")


def load_relations(path: Path | None = None) -> Relations:
    """The relation map in ``path`` (JSON), or the default one when ``path`` is None."""
    if path is None:
        return default_relations()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--relations {path}: cannot read it ({exc})") from exc
    return parse_relations(text, f"--relations {path}")


@dataclass(frozen=True)
class ChainQuery:
    """What to look for: the date, the longest chain and where chains may start."""

    ref_date: date
    max_hops: int = DEFAULT_HOPS
    relations: Relations = field(default_factory=load_relations)
    subjects: Sequence[str] = ()
    pids: Sequence[str] = ()
    lang: str = DEFAULT_LANG
    gap: GapPolicy = field(default_factory=GapPolicy)

    def __post_init__(self) -> None:
        if self.max_hops < 2:
            raise UsageError(f"--hops {self.max_hops}: a chain has at least 2 hops")
        for qid in self.subjects:
            if not ITEM_ID.fullmatch(qid):
                raise UsageError(f"--subject {qid!r} is not an item id like Q42")
        for pid in self.pids:
            if not PROPERTY_ID.fullmatch(pid):
                raise UsageError(f"--pid {pid!r} is not a property id like P36")
            if pid not in self.relations:
                raise UsageError(f"--pid {pid}: the relation map gives it no next hop")

    def params(self) -> dict[str, Any]:
        """The bind parameters of sql/chains/chains.sql (its date checked already)."""
        return {
            "ref_date": self.ref_date,
            "max_hops": self.max_hops,
            "relations": {"key": list(self.relations), "value": list(self.relations.values())},
            "subjects": list(self.subjects),
            "first_pids": list(self.pids),
            "max_gap": self.gap.max_gap,
            "allow_gap": True,
            "lang": self.lang,
        }

    def check_date(self, connection: duckdb.DuckDBPyConnection) -> DateRead:
        """The snapshot the date reads (record time) and how far it is from it; a usage error
        naming the snapshots when the date is beyond the data and the gap is not allowed."""
        (read,) = check_answerable(connection, {"date": self.ref_date}, "record", self.gap)
        return read


def chains(connection: duckdb.DuckDBPyConnection, query: ChainQuery) -> duckdb.DuckDBPyConnection:
    """Run the chain search; the cursor yields one row per chain.

    Columns: start_subject, ref_date, snapshot, gap_days, n_hops, hops (list of structs
    subject, pid, object, statement_id, rank, start (its start qualifiers' time value keys),
    start_lo (their first day, a day number), subject_label, pid_label, object_label),
    answer, answer_label, answer_aliases, answers (every best-rank object of the last hop),
    start_label.
    """
    query.check_date(connection)
    return connection.execute(
        _every_subject(staged_as_one("chains/chains", STAGES)), query.params()
    )


def _every_subject(text: str) -> str:
    """The stages as one statement, the hops of every subject found at once."""
    for name, literal in EVERY_SUBJECT.items():
        text = re.sub(rf"\${name}\b", literal, text)
    return text


def chain_ranges(
    connection: duckdb.DuckDBPyConnection, layout: StoreLayout
) -> tuple[tuple[str, str], ...]:
    """The subject ranges whose hops :func:`stage_chains` finds at a time
    (:data:`RANGE_STATEMENTS` of the latest snapshot each); none on a small store."""
    return latest_ranges(connection, layout, RANGE_STATEMENTS)


def stage_chains(
    connection: duckdb.DuckDBPyConnection,
    query: ChainQuery,
    ranges: Sequence[tuple[str, str]] = (),
) -> int:
    """Keep the chains in the temporary table ``chain_results``, their hops found and
    their chains labelled a subject range of ``ranges`` at a time (every subject at once
    when empty); return how many."""
    query.check_date(connection)
    params = query.params()
    tables = {stage: stage.rsplit("/", 1)[-1] for stage in STAGES} | {"chains/chains": RESULTS}
    ranged = {EDGES, "chains/chains"}  # the walk follows hops from one range to another
    whole = [("", PAST_EVERY_SUBJECT)]
    try:
        for stage, table in tables.items():
            parts = (ranges or whole) if stage in ranged else whole
            with _planned_for(connection, stage):
                _stage_in_ranges(connection, stage, table, params, parts)
    finally:
        for stage in STAGES:
            connection.execute(f"DROP TABLE IF EXISTS temp.{tables[stage]}")
    # fetchall, not fetchone: a result left unfinished blocks the connection's next relation
    counted = connection.execute(load_sql("chains/staged_count")).fetchall()
    return int(counted[0][0]) if counted else 0


def _planned_for(connection: duckdb.DuckDBPyConnection, stage: str) -> AbstractContextManager[None]:
    """The walk with its hash table built on the chains walked (:data:`WALK_PLANNER`), any
    other stage as the connection plans it."""
    if stage == WALK:
        return optimizers_off(connection, *WALK_PLANNER)
    return nullcontext()


def _stage_in_ranges(
    connection: duckdb.DuckDBPyConnection,
    stage: str,
    table: str,
    params: dict[str, Any],
    ranges: Sequence[tuple[str, str]],
) -> None:
    """Fill the temporary table ``table`` with the rows of ``stage`` a subject range at a
    time, in order; the edges of ``chain_edges`` numbered on from one range to the next."""
    rows = 0
    for index, (lo, hi) in enumerate(ranges):
        first = f"CREATE OR REPLACE TEMP TABLE {table} AS"
        into = first if index == 0 else f"INSERT INTO temp.{table}"
        values = params | {"subject_from": lo, "subject_to": hi, "first_edge": rows}
        connection.execute(f"{into}\n{load_sql(stage)}", used_params(stage, values))
        if index + 1 < len(ranges):  # the next range numbers its rows on from these
            counted = connection.execute(f"SELECT count(*) FROM temp.{table}").fetchall()
            rows = int(counted[0][0])


def staged_rows(connection: duckdb.DuckDBPyConnection, limit: int | None) -> list[dict[str, Any]]:
    """The first ``limit`` staged chains (all when None), in the SQL's order, as dicts."""
    cursor = connection.execute(load_sql("chains/staged_rows"), {"n": limit})
    names = [column[0] for column in cursor.description or []]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def staged_unlabelled(connection: duckdb.DuckDBPyConnection, limit: int | None) -> set[str]:
    """The ids the first ``limit`` staged chains show without a label."""
    rows = connection.execute(load_sql("chains/staged_unlabelled"), {"n": limit}).fetchall()
    return {str(row[0]) for row in rows}


def staged_relation(
    connection: duckdb.DuckDBPyConnection, limit: int | None
) -> duckdb.DuckDBPyRelation:
    """The first ``limit`` staged chains (all when None), in the SQL's order."""
    return connection.sql(load_sql("chains/staged_rows"), params={"n": limit})


def export_chains(connection: duckdb.DuckDBPyConnection, out: Path, limit: int | None) -> int:
    """Write the first ``limit`` staged chains to ``out`` (.csv, .jsonl or .parquet,
    atomically); return how many."""
    return write_relation(connection, staged_relation(connection, limit), out)


def relations_literal(relations: Relations) -> str:
    """``relations`` as a DuckDB ``MAP {...}`` literal."""
    entries = ", ".join(f"{quote(pid)}: {quote(following)}" for pid, following in relations.items())
    return f"MAP {{{entries}}}"


def catalog_macro() -> str:
    """The catalog's ``chains(ref_date, subjects := [], max_hops := 3, relations := <default
    map>, first_pids := [], max_gap := 31, allow_gap := false, lang := 'en')`` table macro
    (after ``date_reads`` and ``entity_labels``)."""
    defaults = {
        "max_hops": str(DEFAULT_HOPS),
        "relations": relations_literal(load_relations()),
        "subjects": "[]",
        "first_pids": "[]",
        "max_gap": str(DEFAULT_MAX_GAP),
        "allow_gap": "false",
        "lang": f"'{DEFAULT_LANG}'",
    }
    text = _every_subject(staged_as_one("chains/chains", STAGES))
    return as_table_macro("chains/chains", "chains", PARAMS, defaults, text)
