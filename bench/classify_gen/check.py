"""Figures of a generated store: is it shaped and churned like the issue asks?

Per snapshot: statements, subjects, groups, statements per subject (median, p99, max),
shares of statements with P580/P582, with P585, of year-precision qualifier dates, of
unknown (somevalue) ends, of deprecated and preferred ranks. Per transition: the share of
the earlier snapshot's groups that changed (a value, rank or qualifier differs, or the
group appeared or disappeared). Then the shapes real Wikidata publishes (:data:`REAL`,
sources in bench/README.md) beside the latest snapshot's: statements per item, items with
at most one statement, external identifiers, qualifiers per statement, labels,
descriptions, aliases and sitelinks per item, items with a Wikipedia (enwiki) article, and
the growth of items and statements from one snapshot to the next.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import duckdb

from kgdiff.sqlfiles import quote
from kgdiff.store.layout import StoreLayout, table_files

SHAPE_SQL = """
    SELECT
        count(*) AS statements,
        count(DISTINCT subject) AS subjects,
        count(DISTINCT (subject, pid)) AS groups,
        avg(CAST(start_snaktype IS NOT NULL OR end_snaktype IS NOT NULL AS INTEGER)) AS p580_582,
        avg(CAST(point_snaktype IS NOT NULL AS INTEGER)) AS p585,
        avg(CAST(start_lo <> start_hi AS INTEGER)) FILTER (WHERE start_lo IS NOT NULL)
            AS start_year_or_month,
        avg(CAST(end_snaktype = 'somevalue' AS INTEGER)) FILTER (WHERE end_snaktype IS NOT NULL)
            AS end_unknown,
        avg(CAST(rank = 'deprecated' AS INTEGER)) AS deprecated,
        avg(CAST(rank = 'preferred' AS INTEGER)) AS preferred,
        avg(CAST(time_calendar = 'Q1985786' AS INTEGER)) FILTER (WHERE time_calendar IS NOT NULL)
            AS julian
    FROM read_parquet({file})
"""

SKEW_SQL = """
    SELECT median(n), quantile_disc(n, 0.99), max(n)
    FROM (SELECT subject, count(*) AS n FROM read_parquet({file}) GROUP BY subject)
"""

SIGNATURE_SQL = """
    SELECT subject, pid,
        bit_xor(hash(value, rank, start_lo, start_hi, start_snaktype, end_lo, end_hi,
                     end_snaktype, point_lo, point_hi)) AS sig
    FROM read_parquet({file})
    GROUP BY subject, pid
"""

CHURN_SQL = """
    SELECT
        count(*) FILTER (WHERE a.sig IS NOT NULL) AS before,
        count(*) FILTER (WHERE a.sig IS NULL) AS appeared,
        count(*) FILTER (WHERE b.sig IS NULL) AS disappeared,
        count(*) FILTER (WHERE a.sig <> b.sig) AS changed
    FROM ({a}) AS a FULL OUTER JOIN ({b}) AS b USING (subject, pid)
"""


def _files(out: Path) -> list[tuple[str, list[str]]]:
    """(name, statements files) of every published snapshot, by name (= by date)."""
    layout = StoreLayout(out.resolve())
    return [
        (name, [str(path) for path in table_files(layout.snapshot_dir(name), "statements")])
        for name in layout.published_names()
    ]


def print_checks(out: Path) -> None:
    """Print the shape of every snapshot and the churn between consecutive ones."""
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    files = _files(out)
    print(
        f"{'snapshot':16} {'stmts':>10} {'subjects':>9} {'groups':>9} {'med':>4} {'p99':>5}"
        f" {'max':>5} {'P580/2':>7} {'P585':>6} {'yr/mo':>6} {'end?':>6} {'depr':>6}"
        f" {'pref':>6} {'julian':>6}"
    )
    for name, file in files:
        shape = con.execute(SHAPE_SQL.format(file=quote(file))).fetchone()
        skew = con.execute(SKEW_SQL.format(file=quote(file))).fetchone()
        assert shape is not None and skew is not None
        n, subjects, groups, *shares = shape
        print(
            f"{name:16} {n:>10} {subjects:>9} {groups:>9} {skew[0]:>4.0f} {skew[1]:>5}"
            f" {skew[2]:>5} " + " ".join(f"{100 * (s or 0):>5.1f}%" for s in shares)
        )
    print(
        f"{'transition':34} {'groups':>9} {'changed':>8} {'appeared':>9} {'gone':>8} {'total':>7}"
    )
    for (name_a, file_a), (name_b, file_b) in itertools.pairwise(files):
        churn = con.execute(
            CHURN_SQL.format(
                a=SIGNATURE_SQL.format(file=quote(file_a)),
                b=SIGNATURE_SQL.format(file=quote(file_b)),
            )
        ).fetchone()
        assert churn is not None
        before, appeared, gone, changed = churn
        total = (changed + appeared + gone) / before
        print(
            f"{name_a + ' -> ' + name_b:34} {before:>9} {100 * changed / before:>7.2f}%"
            f" {100 * appeared / before:>8.2f}% {100 * gone / before:>7.2f}% {100 * total:>6.2f}%"
        )


REAL: dict[str, tuple[float, str]] = {
    "statements_per_item": (14.1, "1.65 B statements / 117 M items, 2025"),
    "items_0_or_1_statement": (0.091, "1.48 M + 8.97 M of 115.6 M items, 2025-04"),
    "external_id_share": (0.25, "estimate: 1.14 B external-id triples of 12.9 B, 2021"),
    "qualifiers_per_statement": (0.11, "lower bound: P1545 alone, 177.5 M uses / 1.65 B"),
    "labels_per_item": (5.1, "499.7 M labels / 97.3 M items, 2021"),
    "descriptions_per_item": (25.4, "2.47 B descriptions / 97.3 M items, 2021"),
    "aliases_per_item": (1.05, "102.6 M aliases / 97.3 M items, 2021"),
    "items_with_wikipedia": (0.267, "30.07 M of 112.47 M entities, 2024-09"),
    "items_with_enwiki": (0.061, "6.82 M enwiki articles / 112.5 M items, 2024"),
    "item_growth_6_months": (0.021, "115.64 M → 117.42 M items in 133 days, 2025"),
    "statement_growth_6_months": (0.05, "1.57 B (mid-2024) → 1.65 B (early 2025)"),
}
"""Published shapes of real Wikidata: (value, source in short). bench/README.md cites them."""

ITEM_SQL = """
    WITH items AS (SELECT qid, n_statements, n_sitelinks FROM read_parquet({entities})
                   WHERE type = 'item' AND redirect_to IS NULL)
    SELECT count(*), avg(n_statements), avg(CAST(n_statements <= 1 AS INTEGER)),
           avg(CAST(n_sitelinks > 0 AS INTEGER)),
           (SELECT count(*) FROM read_parquet({sitelinks}) WHERE site = 'enwiki') / count(*)
    FROM items
"""
TERM_SQL = "SELECT kind, count(*) FROM read_parquet({labels}) GROUP BY kind"
STATEMENT_SQL = """
    SELECT count(*), avg(CAST(datatype = 'external-id' AS INTEGER)), avg(n_qualifiers)
    FROM read_parquet({statements})
"""


def _table_files(out: Path, name: str, table: str) -> list[str]:
    layout = StoreLayout(out.resolve())
    return [str(path) for path in table_files(layout.snapshot_dir(name), table)]


def shapes(out: Path) -> dict[str, float]:
    """The :data:`REAL` figures of the latest snapshot of the store ``out`` (growth: from
    the first snapshot to the second)."""
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    names = StoreLayout(out.resolve()).published_names()

    def files(table: str, name: str = names[-1]) -> str:
        return quote(_table_files(out, name, table))

    items = con.execute(
        ITEM_SQL.format(entities=files("entities"), sitelinks=files("sitelinks"))
    ).fetchone()
    stmts = con.execute(STATEMENT_SQL.format(statements=files("statements"))).fetchone()
    assert items is not None and stmts is not None
    terms = dict(con.execute(TERM_SQL.format(labels=files("labels"))).fetchall())
    n_items = items[0]
    found = {
        "statements_per_item": items[1],
        "items_0_or_1_statement": items[2],
        "external_id_share": stmts[1],
        "qualifiers_per_statement": stmts[2],
        "labels_per_item": terms.get("label", 0) / n_items,
        "descriptions_per_item": terms.get("description", 0) / n_items,
        "aliases_per_item": terms.get("alias", 0) / n_items,
        "items_with_wikipedia": items[3],
        "items_with_enwiki": items[4],
    }
    if len(names) > 1:
        found.update(_growth(con, files, names[0], names[1]))
    return {key: round(float(value), 4) for key, value in found.items()}


def _growth(
    con: duckdb.DuckDBPyConnection, files: Callable[[str, str], str], first: str, second: str
) -> dict[str, float]:
    """Items and statements of ``second`` over ``first``, less one."""

    def count(table: str, name: str, where: str = "") -> int:
        row = con.execute(f"SELECT count(*) FROM read_parquet({files(table, name)}) {where}")
        return int(row.fetchone()[0])  # type: ignore[index]

    items = [count("entities", name, "WHERE type = 'item'") for name in (first, second)]
    stmts = [count("statements", name) for name in (first, second)]
    return {
        "item_growth_6_months": items[1] / items[0] - 1,
        "statement_growth_6_months": stmts[1] / stmts[0] - 1,
    }


def print_shapes(out: Path) -> None:
    """The latest snapshot's shapes beside real Wikidata's."""
    found = shapes(out)
    print(f"{'shape':28} {'generated':>10} {'Wikidata':>10}  source")
    for key, (real, source) in REAL.items():
        print(f"{key:28} {found.get(key, float('nan')):>10.3f} {real:>10.3f}  {source}")
