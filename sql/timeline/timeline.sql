-- name: timeline
-- purpose: Every statement of an entity across the snapshots: its record interval (the first
--          and last snapshot it was seen in, and whether it is in the latest one) and its valid
--          interval (start/end/point qualifiers as read in the last snapshot that has it, with
--          each qualifier's snak type: 'somevalue' is an unknown date, NULL no qualifier).
--          Each bound is given as Wikidata wrote it, the time value keys of its qualifiers
--          (`valid_from`, `valid_until`, `point`: earliest first; usually one), and as the
--          first and last day they may denote (`*_lo`, `*_hi`: BIGINT days since 1970-01-01,
--          exact from the Big Bang to the far future, never a DATE: kgdiff_stored_lo/hi,
--          docs/data-model.md#time).
--          A statement whose value was edited keeps its id but gets one row per value.
--          Rows in time order: by the first snapshot that has them, then by when they hold
--          (start, else point in time; unqualified ones first), then property and value.
-- params: $qid the entity (e.g. 'Q42'); $pids (VARCHAR[]: only these properties; empty = all).
WITH seen AS (
    SELECT st.*, s.date AS snapshot_date
    FROM statements AS st
    JOIN snapshots AS s ON s.name = st.snapshot
    WHERE st.subject = $qid
      AND (len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), st.pid))
),
latest AS (
    SELECT max(date) AS date FROM snapshots
),
statement_rows AS (
    SELECT
        pid,
        value,
        statement_id,
        arg_max(rank, snapshot_date) AS rank,
        min(snapshot_date) AS first_seen,
        max(snapshot_date) AS last_seen,
        max(snapshot_date) = (SELECT date FROM latest) AS current,
        list(snapshot ORDER BY snapshot_date) AS snapshots,
        arg_max(snapshot, snapshot_date) AS last_snapshot,
        arg_max(start_snaktype, snapshot_date) AS valid_from_snaktype,
        arg_max(end_snaktype, snapshot_date) AS valid_until_snaktype,
        arg_max(point_snaktype, snapshot_date) AS point_snaktype
    FROM seen
    GROUP BY pid, value, statement_id
),
dated AS (
    -- the days of each start, end and point-in-time value (the stored DATE's where exact)
    SELECT
        q.snapshot,
        q.statement_id,
        q.qualifier_pid,
        q.value,
        kgdiff_stored_lo(q.time_lo, q.value) AS lo,
        kgdiff_stored_hi(q.time_hi, q.value) AS hi
    FROM qualifiers AS q
    WHERE q.subject = $qid
      AND q.qualifier_pid IN ('P580', 'P582', 'P585')
      AND q.snaktype = 'value'
      AND q.value_type = 'time'
),
bounds AS (
    SELECT
        snapshot,
        statement_id,
        qualifier_pid,
        list(value ORDER BY lo, value) AS dates,
        min(lo) AS lo,
        max(hi) AS hi
    FROM dated
    GROUP BY snapshot, statement_id, qualifier_pid
)
SELECT
    r.pid,
    r.value,
    r.statement_id,
    r.rank,
    r.first_seen,
    r.last_seen,
    r.current,
    r.snapshots,
    f.dates AS valid_from,
    f.lo AS valid_from_lo,
    f.hi AS valid_from_hi,
    u.dates AS valid_until,
    u.lo AS valid_until_lo,
    u.hi AS valid_until_hi,
    p.dates AS point,
    p.lo AS point_lo,
    p.hi AS point_hi,
    r.valid_from_snaktype,
    r.valid_until_snaktype,
    r.point_snaktype
FROM statement_rows AS r
LEFT JOIN bounds AS f
    ON f.snapshot = r.last_snapshot AND f.statement_id = r.statement_id
   AND f.qualifier_pid = 'P580'
LEFT JOIN bounds AS u
    ON u.snapshot = r.last_snapshot AND u.statement_id = r.statement_id
   AND u.qualifier_pid = 'P582'
LEFT JOIN bounds AS p
    ON p.snapshot = r.last_snapshot AND p.statement_id = r.statement_id
   AND p.qualifier_pid = 'P585'
ORDER BY
    r.first_seen, coalesce(f.lo, p.lo) NULLS FIRST, r.pid, r.value, r.statement_id;
