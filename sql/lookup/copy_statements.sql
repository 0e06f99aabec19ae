-- name: copy_statements
-- purpose: One subject range of the lookup copy's statements (the columns of
--          sql/lookup/copy_statements_empty.sql), sorted by subject and snapshot and appended,
--          as sql/lookup/copy_table_range.sql does for the other tables: one entity's rows of
--          every snapshot side by side, in a few row groups.
-- params: $lo, $hi (VARCHAR) the subject range [lo, hi); {{@shard}} its schema (identifier).
INSERT INTO lookup.{{@shard}}.statements
SELECT
    subject, pid, snaktype, value_type, datatype, value, rank, time_lo, time_hi,
    start_snaktype, start_lo, start_hi, end_snaktype, end_lo, end_hi,
    point_snaktype, point_lo, point_hi, snapshot
FROM statements
WHERE subject >= $lo AND subject < $hi
ORDER BY subject, snapshot;
