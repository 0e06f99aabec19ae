-- name: groups_sorted
-- purpose: For the benchmark export (docs/benchmark-export.md): the groups it is built from
--          (written by kgdiff.export.inputs.group_file from the classification's files,
--          with its relations and rules applied) sorted in the order of the records' ids —
--          the subject followed by "/", then the relation — into {{out}} in row groups of
--          about 50,000 rows, so that the groups of a range of subjects are read from the
--          row groups that hold them and no config holds every group in memory.
-- params: {{source}} the Parquet file of the groups as written, {{out}} the Parquet path of
--         the sorted copy. DuckDB sorts within its memory limit, spilling beyond it.
COPY (
    SELECT *
    FROM read_parquet({{source}})
    ORDER BY subject || '/', pid
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 50000);
