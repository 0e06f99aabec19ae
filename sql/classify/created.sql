-- name: created
-- purpose: Catalog macro `kgdiff_created(created_mode, created_as_of, part_kind, part_lo,
--          part_hi, merged_relation, resolved_relation)`: when each item was created, the
--          implied start of valid time (docs/classification.md), in one place for
--          sql/classify/classify.sql and sql/staleness/curve.sql. An item first seen (itself
--          or an item merged into it) after a full snapshot was created after the latest full
--          snapshot before its first one (an item absent from a subset snapshot may have
--          existed then, so only a full one dates its creation), at the latest on its first
--          one. Only the items of the part (sql/classify/part_statements.sql), none in record
--          time. One row per item: qid, lo, hi (DATE: the days it was created between).
--          Reads the views `entities(snapshot, qid, redirect_to)` and
--          `snapshots(name, date, coverage)`.
-- params: $created_mode ('record' | 'valid' | 'both'); $created_as_of (DATE): the latest
--         snapshot date read; $part_kind, $part_lo, $part_hi, $merged_relation as
--         sql/classify/part_statements.sql; $resolved_relation (VARCHAR): the name of the
--         caller's merges (sql/classify/merge_targets.sql: qid, target).
WITH
known AS (
    SELECT e.qid, e.redirect_to, s.date, s.name
    FROM entities AS e
    JOIN snapshots AS s ON s.name = e.snapshot
    WHERE s.date <= $created_as_of
),
snapshot_days AS (
    SELECT d.date, (
        SELECT max(s.date) FROM snapshots AS s WHERE s.date < d.date AND s.coverage = 'full'
    ) AS previous
    FROM (SELECT DISTINCT date FROM snapshots WHERE date <= $created_as_of) AS d
)
SELECT f.qid, d.previous + 1 AS lo, d.date AS hi
FROM (
    SELECT coalesce(rs.target, k.qid) AS qid, min(k.date) AS first_date
    FROM (
        -- the entity rows of this part's subjects, a branch per part kind as for the
        -- statements (a subject range reads only the row groups that can hold it)
        SELECT * FROM known WHERE $part_kind = 'all'
        UNION ALL
        SELECT * FROM known WHERE $part_kind = 'range' AND qid >= $part_lo AND qid < $part_hi
        UNION ALL
        SELECT * FROM known
        WHERE $part_kind = 'merged' AND qid IN (SELECT qid FROM query_table($merged_relation))
    ) AS k
    LEFT JOIN query_table($resolved_relation) AS rs ON rs.qid = k.qid
    WHERE k.redirect_to IS NULL AND $created_mode <> 'record'
    GROUP BY ALL
) AS f
JOIN snapshot_days AS d ON d.date = f.first_date AND d.previous IS NOT NULL;
