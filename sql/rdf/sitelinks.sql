-- name: sitelinks
-- purpose: The sitelinks of one subject range of a snapshot for its RDF export.
-- params: {{files}} the snapshot's sitelinks Parquet files; $entities a list of entities to
--         keep, or NULL for every entity; $lo, $hi the range [lo, hi) (NULL: unbounded).
SELECT qid, site, title, badges
FROM read_parquet({{files}})
WHERE ($entities IS NULL OR list_contains($entities, qid))
    AND ($lo IS NULL OR qid >= $lo) AND ($hi IS NULL OR qid < $hi)
ORDER BY qid, site
