-- name: qualifiers
-- purpose: The qualifiers of one subject range of a snapshot for its RDF export (subject,
--          statement, qualifier property, snak type, datatype, value type, value key), in the
--          table's order.
-- params: {{files}} the snapshot's qualifiers Parquet files; $entities a list of subjects to
--         keep, or NULL for every subject; $lo, $hi the range [lo, hi) (NULL: unbounded).
SELECT subject, statement_id, qualifier_pid, ordinal, snaktype, datatype, value_type, value
FROM read_parquet({{files}})
WHERE ($entities IS NULL OR list_contains($entities, subject))
    AND ($lo IS NULL OR subject >= $lo) AND ($hi IS NULL OR subject < $hi)
ORDER BY subject, pid, statement_id, ordinal
