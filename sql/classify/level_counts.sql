-- name: level_counts
-- purpose: Groups per level in a classification build (with $substantive, an evolved group
--          whose change is not substantive counts as stable, as sql/classify/export_chosen.sql
--          reports it).
-- params: {{build}} the build's Parquet files; $pids list of properties (empty = all);
--         $levels list of levels (empty = all);
--         $subjects list of subjects (empty = all); $substantive (BOOLEAN).
SELECT level, count(*) AS groups
FROM (
    SELECT
        subject, pid,
        CASE WHEN $substantive AND level = 'evolved' AND change_nature <> 'substantive'
             THEN 'stable' ELSE level END AS level
    FROM read_parquet({{build}})
)
WHERE (len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid))
  AND (len(CAST($levels AS VARCHAR[])) = 0 OR list_contains(CAST($levels AS VARCHAR[]), level))
  AND (len(CAST($subjects AS VARCHAR[])) = 0
       OR list_contains(CAST($subjects AS VARCHAR[]), subject))
GROUP BY level
ORDER BY groups DESC, level;
