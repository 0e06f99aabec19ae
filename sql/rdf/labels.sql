-- name: labels
-- purpose: The labels, descriptions, aliases and lemmas of one subject range of a snapshot
--          for its RDF export, in the table's order (aliases in their order).
-- params: {{files}} the snapshot's labels Parquet files; $entities a list of entities to keep,
--         or NULL for every entity; $lo, $hi the range [lo, hi) (NULL: unbounded).
SELECT qid, kind, lang, value
FROM read_parquet({{files}})
WHERE ($entities IS NULL OR list_contains($entities, qid))
    AND ($lo IS NULL OR qid >= $lo) AND ($hi IS NULL OR qid < $hi)
ORDER BY qid, kind, lang, ordinal
