-- name: pool_years
-- purpose: For the benchmark export's `pools` config (docs/benchmark-export.md#the-pools-config):
--          the yearly object pools of the groups of the registered relation
--          `pool_groups(subject, pid)`, one row per group and year of $from_year…$to_year,
--          as sql/pools/pools.sql computes them (the same rules, CTE for CTE, from `candidates`
--          to `pooled`: kgdiff/temporal/pools.py) but only for the groups asked for, all
--          properties at once, of the subjects read from one snapshot ($snapshot: the caller
--          runs it once per snapshot its subjects read, sql/export/pool_reads.sql), without
--          labels or the range check (the caller checks the range with
--          kgdiff.temporal.pools.pools_reach). Each row:
--          `subject`, `pid`, `year`, `objects` (value keys, sorted), `precision_only` (those
--          no statement surely places in the year) and `filled` (an empty year given the
--          previous year's pool); empty years before a group's first object have no objects
--          and are not filled. Groups with no object in any year have no row. Unsorted.
--          tests/test_benchmark_pools.py checks it against kg.pools on the samples.
-- params: $snapshot (VARCHAR: the snapshot the subjects of `pool_groups` read, in valid time:
--         the latest, or the latest earlier one that holds them); $from_year, $to_year
--         (INTEGER, from_year <= to_year). Reads the view `statements` and the relation
--         `pool_groups(subject, pid)` registered by the caller.
WITH
periods AS (
    SELECT
        row_number() OVER (ORDER BY t.y) AS idx,
        t.y AS year,
        make_date(t.y, 1, 1) AS lo,
        make_date(t.y, 12, 31) AS hi
    FROM range(CAST($from_year AS BIGINT), CAST($to_year AS BIGINT) + 1) AS t(y)
),
candidates AS (
    SELECT
        st.subject, st.pid AS property, st.value,
        st.start_snaktype AS s_kind, st.start_lo, st.start_hi,
        st.end_snaktype AS e_kind, st.end_lo, st.end_hi,
        st.point_snaktype AS p_kind, st.point_lo, st.point_hi,
        coalesce(st.start_snaktype IN ('value', 'somevalue'), false)
            OR coalesce(st.end_snaktype IN ('value', 'somevalue'), false) AS ranged,
        coalesce(st.point_snaktype IN ('value', 'somevalue'), false) AS pointed
    FROM statements AS st
    SEMI JOIN pool_groups AS g ON g.subject = st.subject AND g.pid = st.pid
    WHERE st.snapshot = $snapshot
      AND st.rank <> 'deprecated'
),
spans AS (
    SELECT
        c.subject, c.property, c.value, c.point_lo, c.point_hi,
        CASE WHEN c.ranged THEN 'ranged' WHEN c.pointed THEN 'event' ELSE 'unqualified' END
            AS kind,
        CASE
            WHEN c.ranged AND c.s_kind = 'value' THEN c.start_lo
            WHEN NOT c.ranged AND c.p_kind = 'value' THEN c.point_lo
            ELSE DATE '-infinity'
        END AS may_lo,
        CASE
            WHEN c.ranged AND c.e_kind = 'value' THEN c.end_hi - 1
            WHEN NOT c.ranged AND c.p_kind = 'value' THEN c.point_hi
            ELSE DATE 'infinity'
        END AS may_hi,
        CASE
            WHEN c.s_kind = 'somevalue' OR c.e_kind = 'somevalue' THEN NULL
            WHEN c.s_kind = 'value' THEN c.start_hi
            ELSE DATE '-infinity'
        END AS sure_lo,
        CASE WHEN c.e_kind = 'value' THEN c.end_lo - 1 ELSE DATE 'infinity' END AS sure_hi
    FROM candidates AS c
),
hits AS (
    SELECT
        s.subject, s.property, p.idx, s.value,
        bool_or(CASE s.kind
            WHEN 'unqualified' THEN true
            WHEN 'event' THEN s.point_lo >= p.lo AND s.point_hi <= p.hi
            ELSE s.sure_lo <= s.sure_hi AND s.sure_lo <= p.hi AND s.sure_hi >= p.lo
        END) IS TRUE AS sure
    FROM spans AS s
    JOIN periods AS p ON s.may_lo <= p.hi AND s.may_hi >= p.lo
    WHERE s.may_lo <= s.may_hi
    GROUP BY s.subject, s.property, p.idx, s.value
),
grid AS (
    SELECT
        g.subject, g.property, p.idx, p.year,
        coalesce(list(h.value ORDER BY h.value) FILTER (h.value IS NOT NULL),
                 CAST([] AS VARCHAR[])) AS objects,
        coalesce(list(h.value ORDER BY h.value) FILTER (NOT h.sure),
                 CAST([] AS VARCHAR[])) AS precision_only
    FROM (SELECT DISTINCT h.subject, h.property FROM hits AS h) AS g
    CROSS JOIN periods AS p
    LEFT JOIN hits AS h ON h.subject = g.subject AND h.property = g.property AND h.idx = p.idx
    GROUP BY g.subject, g.property, p.idx, p.year
),
sources AS (
    SELECT
        gr.*,
        max(CASE WHEN len(gr.objects) > 0 THEN gr.idx END) OVER (
            PARTITION BY gr.subject, gr.property ORDER BY gr.idx
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS source_idx
    FROM grid AS gr
)
SELECT
    s.subject,
    s.property AS pid,
    s.year,
    coalesce(src.objects, s.objects) AS objects,
    coalesce(src.precision_only, s.precision_only) AS precision_only,
    len(s.objects) = 0 AND s.source_idx IS NOT NULL AS filled
FROM sources AS s
LEFT JOIN grid AS src
    ON src.subject = s.subject AND src.property = s.property AND src.idx = s.source_idx;
