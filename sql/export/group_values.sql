-- name: group_values
-- purpose: For the benchmark export's `pools` config (docs/benchmark-export.md#the-pools-config):
--          every value key each group of the registered relation `pool_groups(subject, pid)`
--          holds in any snapshot, in any year (statements that are not deprecated): what no
--          distractor of the group's records may be (Zürich's population of 1953 is no wrong
--          answer for 2013, though no year the pools read holds it). One row per group:
--          `subject`, `pid`, `held` (value keys, sorted). Unsorted.
-- params: none. Reads the view `statements` and the relation `pool_groups(subject, pid)`
--         registered by the caller.
SELECT s.subject, s.pid, list(DISTINCT s.value ORDER BY s.value) AS held
FROM statements AS s
SEMI JOIN pool_groups AS g ON g.subject = s.subject AND g.pid = s.pid
WHERE s.value IS NOT NULL
  AND s.rank <> 'deprecated'
GROUP BY s.subject, s.pid;
