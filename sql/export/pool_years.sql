-- name: pool_years
-- purpose: For the benchmark export's `pools` config (docs/benchmark-export.md#the-pools-config):
--          the yearly object pools of the groups of the registered relation
--          `pool_groups(subject, pid)`, one row per group and year of $from_year…$to_year,
--          by the rules of sql/pools/pools.sql (the macro kgdiff_pooled, sql/pools/pooled.sql,
--          which both call: kgdiff/temporal/pools.py) but only for the groups asked for, all
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
--         (INTEGER, from_year <= to_year); $first, $last (VARCHAR: the least and the greatest
--         subject of `pool_groups`: the statements of that range of subjects alone are read,
--         the store's files being sorted by subject). Reads the view `statements` and the
--         relation `pool_groups(subject, pid)` registered by the caller.
WITH
periods AS (
    SELECT
        row_number() OVER (ORDER BY t.y) AS idx,
        CAST(t.y AS VARCHAR) AS label,
        make_date(t.y, 1, 1) AS lo,
        make_date(t.y, 12, 31) AS hi
    FROM range(CAST($from_year AS BIGINT), CAST($to_year AS BIGINT) + 1) AS t(y)
),
pool_statements AS (
    SELECT st.*
    FROM statements AS st
    SEMI JOIN pool_groups AS g ON g.subject = st.subject AND g.pid = st.pid
    WHERE st.snapshot = $snapshot AND st.subject BETWEEN $first AND $last
)
SELECT
    po.subject,
    po.property AS pid,
    year(po.lo) AS year,
    po.objects,
    po.precision_only,
    po.filled
FROM kgdiff_pooled('pool_statements', 'periods') AS po;
