-- name: finalize_statements
-- purpose: Publish the statements table of a snapshot from its part files, sorted for
--          lookups by subject and property (statement order within a property kept).
-- params: {{statement_parts}} list of statement part files; {{out}} path of the Parquet file.
COPY (
    SELECT *
    FROM read_parquet({{statement_parts}})
    ORDER BY subject, pid, ordinal, statement_id
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 200000);
