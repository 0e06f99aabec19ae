-- name: timeline_copied
-- purpose: An entity's timeline read from the lookup copy's `timelines` table
--          (sql/lookup/copy_timelines.sql made it with sql/timeline/timeline.sql): the rows
--          and the order timeline.sql gives.
-- params: $qid the entity (e.g. 'Q42'); $pids (VARCHAR[]: only these properties; empty = all).
SELECT * EXCLUDE (subject)
FROM timelines
WHERE subject = $qid
  AND (len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid))
ORDER BY first_seen, coalesce(valid_from_lo, point_lo) NULLS FIRST, pid, value, statement_id;
