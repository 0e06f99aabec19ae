-- name: sitelinks
-- purpose: The sitelinks of one snapshot for its RDF export.
-- params: {{files}} the snapshot's sitelinks Parquet files; $entities a list of entities to
--         keep, or NULL for every entity.
SELECT qid, site, title, badges
FROM read_parquet({{files}})
WHERE $entities IS NULL OR list_contains($entities, qid)
