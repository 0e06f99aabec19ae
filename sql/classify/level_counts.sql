-- name: level_counts
-- purpose: Groups per level in a classification build.
-- params: {{build}} the build's Parquet file; $pids list of properties (empty = all).
SELECT level, count(*) AS groups
FROM read_parquet({{build}})
WHERE len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid)
GROUP BY level
ORDER BY groups DESC, level;
