-- name: entities
-- purpose: The entities of one subject range of a snapshot for its RDF export: id, type, a
--          property's datatype and redirect target, in id order.
-- params: {{files}} the snapshot's entities Parquet files; $entities a list of entities to
--         keep, or NULL for every entity; $lo, $hi the range [lo, hi) (NULL: unbounded).
SELECT qid, type, datatype, redirect_to
FROM read_parquet({{files}})
WHERE ($entities IS NULL OR list_contains($entities, qid))
    AND ($lo IS NULL OR qid >= $lo) AND ($hi IS NULL OR qid < $hi)
ORDER BY qid
