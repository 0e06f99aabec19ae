-- name: export
-- purpose: Write the groups of a classification build to JSON lines or Parquet.
-- params: {{build}} the build's Parquet file; {{out}} output path; {{format}} 'json' or
--         'parquet'; $pids list of properties (empty = all).
COPY (
    SELECT *
    FROM read_parquet({{build}})
    WHERE len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid)
    ORDER BY subject, pid
) TO {{out}} (FORMAT {{format}});
