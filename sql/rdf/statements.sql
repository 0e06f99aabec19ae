-- name: statements
-- purpose: The statements of one subject range of a snapshot for its RDF export, in the
--          table's order, each with `best`: whether it is among the best-ranked statements of
--          its (subject, pid) by Wikidata's rule for truthy triples (preferred if the group
--          has a preferred statement, else normal; never deprecated). A range holds whole
--          subjects, so the window over a group sees all of it (and no more than the range).
-- params: {{files}} the snapshot's statements Parquet files; $entities a list of subjects to
--         keep, or NULL for every subject; $lo, $hi the range [lo, hi) (NULL: unbounded).
SELECT
    statement_id,
    subject,
    pid,
    rank,
    snaktype,
    datatype,
    value_type,
    value,
    rank = CASE
        WHEN bool_or(rank = 'preferred') OVER (PARTITION BY subject, pid) THEN 'preferred'
        ELSE 'normal'
    END AS best
FROM read_parquet({{files}})
WHERE ($entities IS NULL OR list_contains($entities, subject))
    AND ($lo IS NULL OR subject >= $lo) AND ($hi IS NULL OR subject < $hi)
ORDER BY subject, pid, ordinal, statement_id
