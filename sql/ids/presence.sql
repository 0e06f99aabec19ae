-- name: presence
-- purpose: Where an entity is, for saying why a question about it has no answer: one row per
--          snapshot (oldest first) with its date and coverage, whether the snapshot holds the
--          entity, the entity it redirects to there, how many statements the entity has
--          there, and how many of them have property $pid.
-- params: $qid (VARCHAR); $pid (VARCHAR, NULL = any property).
SELECT
    s.name AS snapshot,
    s.date,
    s.coverage,
    e.qid IS NOT NULL AS held,
    e.redirect_to,
    coalesce(st.statements, 0) AS statements,
    coalesce(st.with_pid, 0) AS with_pid
FROM snapshots AS s
LEFT JOIN (
    SELECT snapshot, qid, redirect_to FROM entities WHERE qid = $qid
) AS e ON e.snapshot = s.name
LEFT JOIN (
    SELECT snapshot, count(*) AS statements,
           count(*) FILTER (WHERE $pid IS NULL OR pid = $pid) AS with_pid
    FROM statements
    WHERE subject = $qid
    GROUP BY snapshot
) AS st ON st.snapshot = s.name
ORDER BY s.date, s.name;
