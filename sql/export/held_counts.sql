-- name: held_counts
-- purpose: For the benchmark export's `multi_hop` config: how many values each group
--          ($subjects[i], $pids[i]) holds in $snapshot over all its statements, whatever
--          their dates (not deprecated). A hop about a subject that no longer exists is asked
--          in the past tense ("Which country was Adolf Hitler a citizen of?"), which every
--          value it ever held answers, not only the one valid at the date. One row per group
--          that has a value: `subject`, `pid`, `held`. Unsorted.
-- params: $subjects (VARCHAR[]), $pids (VARCHAR[]) of the same length; $snapshot (VARCHAR).
--         Reads the view `statements`.
WITH wanted AS (
    SELECT unnest(CAST($subjects AS VARCHAR[])) AS subject,
           unnest(CAST($pids AS VARCHAR[])) AS pid
)
SELECT s.subject, s.pid, count(DISTINCT s.value) AS held
FROM statements AS s
SEMI JOIN wanted AS w ON w.subject = s.subject AND w.pid = s.pid
WHERE s.snapshot = $snapshot
  AND s.rank <> 'deprecated'
  AND s.value IS NOT NULL
GROUP BY s.subject, s.pid;
