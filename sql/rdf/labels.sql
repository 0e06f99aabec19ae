-- name: labels
-- purpose: The labels, descriptions, aliases and lemmas of one snapshot for its RDF export.
-- params: {{files}} the snapshot's labels Parquet files; $entities a list of entities to keep,
--         or NULL for every entity.
SELECT qid, kind, lang, value
FROM read_parquet({{files}})
WHERE $entities IS NULL OR list_contains($entities, qid)
