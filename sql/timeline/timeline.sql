-- name: timeline
-- purpose: Every statement of an entity across the snapshots: its record interval (the first
--          and last snapshot it was seen in, and whether it is in the latest one) and its valid
--          interval (start/end/point qualifiers as read in the last snapshot that has it, with
--          each qualifier's snak type: 'somevalue' is an unknown date, NULL no qualifier).
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
)
SELECT *
FROM (
    SELECT
        pid,
        value,
        statement_id,
        arg_max(rank, snapshot_date) AS rank,
        min(snapshot_date) AS first_seen,
        max(snapshot_date) AS last_seen,
        max(snapshot_date) = (SELECT date FROM latest) AS current,
        list(snapshot ORDER BY snapshot_date) AS snapshots,
        arg_max(start_lo, snapshot_date) AS valid_from_lo,
        arg_max(start_hi, snapshot_date) AS valid_from_hi,
        arg_max(end_lo, snapshot_date) AS valid_until_lo,
        arg_max(end_hi, snapshot_date) AS valid_until_hi,
        arg_max(point_lo, snapshot_date) AS point_lo,
        arg_max(point_hi, snapshot_date) AS point_hi,
        arg_max(start_snaktype, snapshot_date) AS valid_from_snaktype,
        arg_max(end_snaktype, snapshot_date) AS valid_until_snaktype,
        arg_max(point_snaktype, snapshot_date) AS point_snaktype
    FROM seen
    GROUP BY pid, value, statement_id
) AS statement_rows
ORDER BY first_seen, coalesce(valid_from_lo, point_lo) NULLS FIRST, pid, value, statement_id;
