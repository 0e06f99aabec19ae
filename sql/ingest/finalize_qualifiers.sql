-- name: finalize_qualifiers
-- purpose: Publish the qualifiers table of a snapshot (qualifier order kept in `ordinal`),
--          sorted by subject, property and statement.
-- params: {{qualifier_parts}} list of qualifier part files; {{out}} path of the Parquet file.
COPY (
    SELECT *
    FROM read_parquet({{qualifier_parts}})
    ORDER BY subject, pid, statement_id, ordinal
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 200000);
