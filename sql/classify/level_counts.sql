-- name: level_counts
-- purpose: Groups per level in a classification build.
-- params: {{build}} the build's Parquet files; $pids list of properties (empty = all);
--         $levels list of levels (empty = all);
--         $subjects list of subjects (empty = all).
SELECT level, count(*) AS groups
FROM read_parquet({{build}})
WHERE (len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid))
  AND (len(CAST($levels AS VARCHAR[])) = 0 OR list_contains(CAST($levels AS VARCHAR[]), level))
  AND (len(CAST($subjects AS VARCHAR[])) = 0
       OR list_contains(CAST($subjects AS VARCHAR[]), subject))
GROUP BY level
ORDER BY groups DESC, level;
