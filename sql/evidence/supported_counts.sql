-- name: supported_counts
-- purpose: Groups per level and `supported` value (true, false, NULL = cannot tell).
-- params: $pids list of properties (empty = all). Reads the temporary view `export_source`.
SELECT level, supported, count(*) AS groups
FROM export_source
WHERE len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid)
GROUP BY ALL
ORDER BY level, supported;
