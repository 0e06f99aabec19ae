-- name: copy_statements_empty
-- purpose: The statements table of the lookup copy, made empty: the columns the questions
--          about one entity read of it (the classification of one subject's facts, why an
--          entity has no answer, which ids are known); the other columns, the statement id the
--          largest, are not copied (the copy's timelines hold the ids a timeline shows).
--          sql/lookup/copy_statements.sql fills it range by range.
-- params: {{@shard}} the range's schema in the copy (identifier).
CREATE TABLE lookup.{{@shard}}.statements AS
SELECT
    subject, pid, snaktype, value_type, datatype, value, rank, time_lo, time_hi,
    start_snaktype, start_lo, start_hi, end_snaktype, end_lo, end_hi,
    point_snaktype, point_lo, point_hi, snapshot
FROM statements
LIMIT 0;
