-- name: entities
-- purpose: The entities of one snapshot for its RDF export: id, type, a property's datatype
--          and redirect target.
-- params: {{files}} the snapshot's entities Parquet files; $entities a list of entities to
--         keep, or NULL for every entity.
SELECT qid, type, datatype, redirect_to
FROM read_parquet({{files}})
WHERE $entities IS NULL OR list_contains($entities, qid)
