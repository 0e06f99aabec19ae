-- name: qualifiers
-- purpose: The qualifiers of one snapshot for its RDF export (statement, qualifier property,
--          snak type, datatype, value type, value key).
-- params: {{files}} the snapshot's qualifiers Parquet files; $entities a list of subjects to
--         keep, or NULL for every subject.
SELECT statement_id, qualifier_pid, ordinal, snaktype, datatype, value_type, value
FROM read_parquet({{files}})
WHERE $entities IS NULL OR list_contains($entities, subject)
