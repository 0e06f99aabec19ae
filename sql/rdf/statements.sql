-- name: statements
-- purpose: The statements of one snapshot for its RDF export, each with `best`: whether it
--          is among the best-ranked statements of its (subject, pid) by Wikidata's rule for
--          truthy triples (preferred if the group has a preferred statement, else normal;
--          never deprecated). No ORDER BY: N-Triples need none, and sorting a whole dump's
--          statements would cost memory.
-- params: {{files}} the snapshot's statements Parquet files; $entities a list of subjects to
--         keep, or NULL for every subject.
SELECT
    statement_id,
    subject,
    pid,
    rank,
    snaktype,
    datatype,
    value_type,
    value,
    rank <> 'deprecated'
        AND rank = CASE
            WHEN bool_or(rank = 'preferred') OVER (PARTITION BY subject, pid) THEN 'preferred'
            ELSE 'normal'
        END AS best
FROM read_parquet({{files}})
WHERE $entities IS NULL OR list_contains($entities, subject)
