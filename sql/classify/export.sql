-- name: export
-- purpose: Write the groups of a classification to JSON lines or Parquet, sorted.
-- params: {{out}} output path; {{format}} 'json' or 'parquet'; $pids list of properties
--         (empty = all). Reads the temporary view `export_source` (the build, with its
--         evidence columns when the store has evidence).
COPY (
    SELECT *
    FROM export_source
    WHERE len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid)
    ORDER BY subject, pid
) TO {{out}} (FORMAT {{format}});
