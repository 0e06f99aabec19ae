-- name: finalize_qualifiers
-- purpose: Publish the qualifiers table of a snapshot (qualifier order kept in `ordinal`),
--          sorted by subject, property and statement: the rows of one bucket (a range of
--          subjects; see kgdiff/store/buckets.py).
-- params: {{qualifier_parts}} list of qualifier part files; {{out}} path of the Parquet file;
--         {{lo}} / {{hi}} the bucket's subject range, lo inclusive, hi exclusive (NULL: unbounded).
COPY (
    SELECT *
    FROM read_parquet({{qualifier_parts}})
    WHERE ({{lo}} IS NULL OR subject >= {{lo}}) AND ({{hi}} IS NULL OR subject < {{hi}})
    ORDER BY subject, pid, statement_id, ordinal
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 200000);
