-- name: statements
-- purpose: The statements of one snapshot for its RDF export, each with `best`: whether it
--          is among the best-ranked statements of its (subject, pid) by Wikidata's rule for
--          truthy triples (preferred if the group has a preferred statement, else normal;
--          never deprecated). The groups with a preferred statement are few (a hash table of
--          them is what the join holds), so the statements stream past it: no window over,
--          and no sort of, a whole dump's statements.
-- params: {{files}} the snapshot's statements Parquet files; $entities a list of subjects to
--         keep, or NULL for every subject.
WITH preferred AS (
    SELECT DISTINCT subject, pid
    FROM read_parquet({{files}})
    WHERE rank = 'preferred' AND ($entities IS NULL OR list_contains($entities, subject))
)
SELECT
    s.statement_id,
    s.subject,
    s.pid,
    s.rank,
    s.snaktype,
    s.datatype,
    s.value_type,
    s.value,
    s.rank = CASE WHEN p.subject IS NULL THEN 'normal' ELSE 'preferred' END AS best
FROM read_parquet({{files}}) AS s
LEFT JOIN preferred AS p ON p.subject = s.subject AND p.pid = s.pid
WHERE $entities IS NULL OR list_contains($entities, s.subject)
