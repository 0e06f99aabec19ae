"""Figures of a generated store: is it shaped and churned like the issue asks?

Per snapshot: statements, subjects, groups, statements per subject (median, p99, max),
shares of statements with P580/P582, with P585, of year-precision qualifier dates, of
unknown (somevalue) ends, of deprecated and preferred ranks. Per transition: the share of
the earlier snapshot's groups that changed (a value, rank or qualifier differs, or the
group appeared or disappeared).
"""

from __future__ import annotations

import itertools
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
