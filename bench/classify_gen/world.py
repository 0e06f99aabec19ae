"""The universe of subjects and (subject, pid) groups every snapshot is cut from.

Built once per store in a scratch DuckDB database: ``tmpl`` (the templates),
``subjects`` (number, kind, the transition it was created in) and ``groups``
(one row per (subject, pid) with everything its statements are drawn from, sorted
by subject and pid as strings, the order the snapshot files are written in).
The base subjects are cut so that the first snapshot has at most ``statements`` rows.
"""

from __future__ import annotations

import itertools
import math

import duckdb

from bench.classify_gen import draws as d
from bench.classify_gen.model import (
    DATATYPES,
    EXTERNAL_ID_PIDS,
    EXTERNAL_ID_SKEW,
    KINDS,
    TEMPLATES,
    GenParams,
    kind_codes,
)

PILOT_SUBJECTS = 50_000
SUBJECTS_PER_RANGE = 2_000_000
"""Base subjects drawn at once while sizing the universe."""
STATEMENTS_PER_RANGE = 10_000_000
"""About this many statements' groups are sorted at once."""
TMPL_COLUMNS = (
    "tid INTEGER, kind INTEGER, pid VARCHAR, prob DOUBLE, vtype VARCHAR, smin INTEGER, "
    "smax INTEGER, salpha DOUBLE, sscale DOUBLE, pool_off BIGINT, pool_n BIGINT, skew DOUBLE, "
    "tmode INTEGER, tq DOUBLE, churn DOUBLE, cmin INTEGER, cmax INTEGER, calpha DOUBLE, "
    "cscale DOUBLE, unit VARCHAR, datatype VARCHAR, value_type VARCHAR"
)


def create_templates(con: duckdb.DuckDBPyConnection) -> None:
    """Table ``tmpl``: one row per :data:`~bench.classify_gen.model.TEMPLATES` entry."""
    codes = kind_codes()
    con.execute(f"CREATE OR REPLACE TABLE tmpl ({TMPL_COLUMNS})")
    rows = [
        (
            tid,
            codes[t.kind],
            t.pid,
            t.prob,
            t.vtype,
            *t.size,
            *t.pool,
            t.tmode,
            t.tq,
            t.churn,
            *t.count,
            t.unit,
            *DATATYPES[t.vtype],
        )
        for tid, t in enumerate(TEMPLATES)
    ]
    con.executemany(f"INSERT INTO tmpl VALUES ({', '.join(['?'] * 22)})", rows)


def kind_case(draw: str) -> str:
    """SQL: the kind code for a uniform draw, by the shares in :data:`KINDS`."""
    branches, edge = [], 0.0
    for code, share in enumerate(KINDS.values()):
        edge += share
        branches.append(f"WHEN {draw} < {edge!r} THEN {code}")
    return "CASE " + " ".join(branches) + f" ELSE {len(KINDS) - 1} END"


def subjects_sql(first: int, last: int, born: int) -> str:
    """SQL: subjects numbered ``first`` … ``last`` created in transition ``born``."""
    kind = kind_case(f"u(range, 0, {d.KIND})")
    return f"SELECT range AS num, {born} AS born, {kind} AS kind FROM range({first}, {last + 1})"


def template_groups_sql(subjects: str) -> str:
    """SQL: candidate groups (num, subj_born, born, kind, tid, gi) of the subjects' templates."""
    return f"""
        SELECT num, subj_born, born, kind, tid,
               unnest(range(CASE WHEN pid IS NULL
                   THEN lomax(u(num, tid, {d.COUNT}), cmin, cmax, calpha, cscale)
                   ELSE 1 END)) AS gi
        FROM (
            SELECT s.num, s.born AS subj_born, s.born, s.kind, t.tid, t.pid,
                   t.cmin, t.cmax, t.calpha, t.cscale
            FROM ({subjects}) AS s JOIN tmpl AS t ON t.kind = s.kind
            WHERE u(s.num, t.tid, {d.HAS}) < t.prob
        )"""


def new_groups_sql(params: GenParams, subjects: str = "subjects") -> str:
    """SQL: external-identifier groups added to existing ``subjects`` in each transition."""
    return f"""
        SELECT s.num, s.born AS subj_born, CAST(x.t AS INTEGER) AS born, s.kind, t.tid,
               1000 + x.t AS gi
        FROM ({subjects}) AS s
        JOIN tmpl AS t ON t.kind = s.kind AND t.pid IS NULL
        CROSS JOIN range(1, {params.snapshots}) AS x(t)
        WHERE s.born < x.t AND u(s.num, x.t, {d.NEW_GROUP}) < {params.churn.new_groups!r}"""


def groups_sql(candidates: str, params: GenParams) -> str:
    """SQL: full group rows (pid, gid, size, drawing parameters) for candidate groups."""
    shape = params.shape
    ext = "[" + ", ".join(f"'{pid}'" for pid in EXTERNAL_ID_PIDS) + "]"
    ext_pick = (
        f"{ext}[1 + CAST(floor({len(EXTERNAL_ID_PIDS)} * "
        f"pow(u(c.num, c.tid * 10000 + c.gi, {d.EXT_PID}), {EXTERNAL_ID_SKEW})) AS INTEGER)]"
    )
    return f"""
        SELECT *,
            CASE WHEN u(gid, 0, {d.TQ}) < tq THEN tmode0 ELSE 0 END AS tmode,
            least(CASE WHEN tmode0 = 4 THEN 1 + floor(u(gid, 0, {d.STEP}) * 3)
                       ELSE 1 + floor(u(gid, 0, {d.STEP}) * 5) END,
                  greatest(1, 150 // size))::INTEGER AS step,
            u(gid, 0, {d.OPEN}) < {shape.open_career!r} AS last_open,
            u(gid, 0, {d.PREF}) < {shape.preferred_series!r} AS series_pref,
            pool_off + pool_n * pow(u(gid, 0, {d.AMOUNT}), skew) AS amount0,
            0.99 + 0.04 * u(gid, 0, {d.GROWTH}) AS growth
        FROM (
            SELECT *, lomax(u(gid, 0, {d.SIZE}), smin, smax, salpha, sscale) AS size
            FROM (
                SELECT *, hash(num, pid, {params.seed}) AS gid
                FROM (
                    SELECT c.num, c.subj_born, c.born, c.kind, c.tid, c.gi,
                           coalesce(t.pid, {ext_pick}) AS pid,
                           t.vtype, t.datatype, t.value_type, t.pool_off, t.pool_n, t.skew,
                           t.tmode AS tmode0, t.tq, t.churn, t.unit,
                           t.smin, t.smax, t.salpha, t.sscale
                    FROM ({candidates}) AS c
                    JOIN tmpl AS t ON t.tid = c.tid
                )
            )
        )"""


DEDUPE = "QUALIFY row_number() OVER (PARTITION BY num, pid ORDER BY born, tid, gi) = 1"


def estimate_subjects(con: duckdb.DuckDBPyConnection, params: GenParams) -> int:
    """How many base subjects to draw so that their statements surely reach the target."""
    subjects = min(PILOT_SUBJECTS, max(5_000, params.statements // 4))  # small stores: quick
    pilot = template_groups_sql(subjects_sql(1, subjects, 0))
    total = con.execute(f"SELECT sum(size) FROM ({groups_sql(pilot, params)} {DEDUPE})").fetchone()
    per_subject = float(total[0] if total else 1) / subjects
    return math.ceil(params.statements / per_subject * 1.05) + 1000


def num_ranges(first: int, last: int, width: int) -> list[tuple[int, int]]:
    """Consecutive ranges (first, last), both included, of at most ``width`` numbers."""
    return [(lo, min(lo + width - 1, last)) for lo in range(first, last + 1, width)]


def create_base_sizes(con: duckdb.DuckDBPyConnection, params: GenParams, estimate: int) -> None:
    """Table ``base_sizes`` (num, n): the statements of each base subject, range by range.

    Only the per-subject sums are kept (not the groups), so the cut needs little disk.
    """
    con.execute("CREATE OR REPLACE TABLE base_sizes (num BIGINT, n BIGINT)")
    for first, last in num_ranges(1, estimate, SUBJECTS_PER_RANGE):
        base = template_groups_sql(subjects_sql(first, last, 0))
        con.execute(
            f"INSERT INTO base_sizes SELECT num, sum(size) "
            f"FROM ({groups_sql(base, params)} {DEDUPE}) GROUP BY num"
        )


def cut_subjects(con: duckdb.DuckDBPyConnection, statements: int) -> tuple[int, int]:
    """The last base subject whose statements still fit in ``statements``; and their count."""
    row = con.execute(f"""
        SELECT max(num), max(cum) FROM (
            SELECT num, sum(n) OVER (ORDER BY num) AS cum FROM base_sizes
        ) WHERE cum <= {statements}""").fetchone()
    if row is None or row[0] is None:
        raise SystemExit(f"--statements {statements} is too small for one subject")
    return int(row[0]), int(row[1])


def create_subjects(con: duckdb.DuckDBPyConnection, params: GenParams, last: int) -> None:
    """Table ``subjects``: the base subjects 1 … last, then each transition's newcomers."""
    per_transition = max(1, round(last * params.churn.new_subjects))
    parts = [subjects_sql(1, last, 0)]
    for t in range(1, params.snapshots):
        first = last + 1 + (t - 1) * per_transition
        parts.append(subjects_sql(first, first + per_transition - 1, t))
    con.execute(
        "CREATE OR REPLACE TABLE subjects AS SELECT 'Q' || num AS subject, * FROM ("
        + " UNION ALL ".join(parts)
        + ")"
    )


def subject_bounds(con: duckdb.DuckDBPyConnection, ranges: int) -> list[str]:
    """``ranges - 1`` subject ids cutting ``subjects`` into ranges of about equal size."""
    if ranges < 2:
        return []
    shares = [i / ranges for i in range(1, ranges)]
    row = con.execute("SELECT quantile_disc(subject, ?) FROM subjects", [shares]).fetchone()
    return sorted(set(row[0])) if row and row[0] else []


def range_filter(low: str | None, high: str | None) -> str:
    """SQL condition: ``subject`` in [low, high) (an open end when None)."""
    parts = [f"subject >= '{low}'" if low else "", f"subject < '{high}'" if high else ""]
    return " AND ".join(part for part in parts if part) or "true"


def groups_in_range_sql(params: GenParams, where: str) -> str:
    """SQL: the deduplicated groups of the subjects matching ``where``, by subject and pid."""
    in_range = f"SELECT * FROM subjects WHERE {where}"
    base = template_groups_sql(f"{in_range} AND born = 0")
    newcomers = template_groups_sql(f"{in_range} AND born > 0")
    return f"""
        SELECT 'Q' || num AS subject, * FROM (
            {groups_sql(base, params)}
            UNION ALL BY NAME ({groups_sql(newcomers, params)})
            UNION ALL BY NAME ({groups_sql(new_groups_sql(params, in_range), params)})
        )
        {DEDUPE}
        ORDER BY subject, pid"""


def create_groups(con: duckdb.DuckDBPyConnection, params: GenParams) -> None:
    """Table ``groups``, written range by range in subject order.

    Each range is sorted on its own and appended, so the table comes out sorted without
    one sort of the whole universe (which spilled several times its size to disk).
    """
    bounds = subject_bounds(con, max(1, params.statements // STATEMENTS_PER_RANGE))
    edges: list[str | None] = [None, *bounds, None]
    for i, (low, high) in enumerate(itertools.pairwise(edges)):
        query = groups_in_range_sql(params, range_filter(low, high))
        if i == 0:
            con.execute(f"CREATE OR REPLACE TABLE groups AS {query}")
        else:
            con.execute(f"INSERT INTO groups BY NAME {query}")


def build(con: duckdb.DuckDBPyConnection, params: GenParams) -> tuple[int, int]:
    """Create ``tmpl``, ``subjects`` and ``groups``; return (base subjects, base statements)."""
    create_templates(con)
    create_base_sizes(con, params, estimate_subjects(con, params))
    last, base_statements = cut_subjects(con, params.statements)
    con.execute("DROP TABLE base_sizes")
    create_subjects(con, params, last)
    create_groups(con, params)
    return last, base_statements
