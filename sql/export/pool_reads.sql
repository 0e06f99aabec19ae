-- name: pool_reads
-- purpose: For the benchmark export's `pools` config: the snapshot whose statements each
--          subject of the registered relation `pool_groups(subject, pid)` is pooled from, by
--          the rule of sql/pools/pools.sql (its CTEs `latest_full` and `subject_reads`):
--          $snapshot, the latest, unless it is a subset snapshot that does not hold the
--          subject; then the latest earlier snapshot that speaks for it, a subset snapshot
--          whose coverage table lists it or the latest full snapshot (which speaks for every
--          entity). One row per subject that a snapshot speaks for: `subject`, `snapshot`.
--          Unsorted. sql/export/pool_years.sql then reads each snapshot's subjects.
-- params: $snapshot (VARCHAR: the latest snapshot, as kgdiff.temporal.pools.pools_reach reads
--         it). Reads the views `snapshots(name, date, coverage)` and `coverage(snapshot, qid)`
--         and the relation `pool_groups(subject, pid)` registered by the caller.
WITH
reach AS (
    SELECT s.date AS snapshot_date FROM snapshots AS s WHERE s.name = $snapshot
),
latest_full AS (
    SELECT arg_max(s.name, (s.date, s.name)) AS name, max(s.date) AS day
    FROM snapshots AS s
    WHERE s.coverage = 'full' AND s.date <= (SELECT r.snapshot_date FROM reach AS r)
),
subject_reads AS (
    SELECT c.qid AS subject, arg_max(s.name, (s.date, s.name)) AS snapshot
    FROM coverage AS c
    JOIN snapshots AS s ON s.name = c.snapshot
    CROSS JOIN latest_full AS f
    WHERE s.coverage = 'subset'
      AND s.date <= (SELECT r.snapshot_date FROM reach AS r)
      AND (f.name IS NULL OR s.date > f.day OR (s.date = f.day AND s.name > f.name))
      AND c.qid IN (SELECT g.subject FROM pool_groups AS g)
    GROUP BY c.qid
)
SELECT g.subject, coalesce(sr.snapshot, f.name) AS snapshot
FROM (SELECT DISTINCT p.subject FROM pool_groups AS p) AS g
LEFT JOIN subject_reads AS sr ON sr.subject = g.subject
CROSS JOIN latest_full AS f
WHERE coalesce(sr.snapshot, f.name) IS NOT NULL;
