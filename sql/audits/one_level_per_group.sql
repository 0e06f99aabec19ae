-- name: one_level_per_group
-- purpose: Audit: every (subject, pid) group gets exactly one level. Returns violating groups.
-- params: {{build}} a classification build's Parquet file.
SELECT subject, pid, count(*) AS rows, list(level) AS levels
FROM read_parquet({{build}})
GROUP BY subject, pid
HAVING count(*) > 1;
