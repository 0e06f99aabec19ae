-- name: finalize_statements
-- purpose: Publish the statements table of a snapshot from its part files, sorted for
--          lookups by subject and property (statement order within a property kept): the
--          rows of one bucket (a range of subjects; see kgdiff/store/buckets.py).
-- params: {{statement_parts}} list of statement part files; {{out}} path of the Parquet file;
--         {{lo}} / {{hi}} the bucket's subject range, lo inclusive, hi exclusive (NULL: unbounded).
COPY (
    SELECT *
    FROM read_parquet({{statement_parts}})
    WHERE ({{lo}} IS NULL OR subject >= {{lo}}) AND ({{hi}} IS NULL OR subject < {{hi}})
    ORDER BY subject, pid, ordinal, statement_id
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 200000);
