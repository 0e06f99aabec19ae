-- name: bounds
-- purpose: Where to cut one snapshot into subject ranges for its RDF export in entity order:
--          every `$every`-th entity id (sorted), after the first. Each range [bound, next
--          bound) then holds `$every` entities, read table by table on its own.
-- params: {{files}} the snapshot's entities Parquet files; $every the entities per range.
SELECT qid
FROM (
    SELECT qid, row_number() OVER (ORDER BY qid) AS n
    FROM (SELECT DISTINCT qid FROM read_parquet({{files}}))
)
WHERE n > 1 AND n % $every = 1
ORDER BY qid
