-- name: qualifiers
-- purpose: The qualifiers of one snapshot for its RDF export (statement, qualifier property,
--          snak type, datatype, value type, value key), in the tables' order.
-- params: {{files}} the snapshot's qualifiers Parquet files; $entities a list of subjects to
--         keep, or NULL for every subject.
SELECT statement_id, subject, qualifier_pid, ordinal, snaktype, datatype, value_type, value
FROM read_parquet({{files}})
WHERE $entities IS NULL OR list_contains($entities, subject)
ORDER BY subject, pid, statement_id, ordinal
