-- name: covered
-- purpose: Catalog macro `kgdiff_covered(part_kind, part_lo, part_hi, merged_relation,
--          resolved_relation, subset_relation)`: the subjects each subset snapshot read knows
--          about (merged items followed), for the subjects of one part, in one place for
--          sql/classify/classify.sql and sql/staleness/curve.sql (a group whose subject its
--          subset snapshot does not list is not covered there: docs/classification.md).
--          One row per (snapshot, subject).
--          Reads the view `coverage(snapshot, qid)`.
-- params: $part_kind, $part_lo, $part_hi, $merged_relation as
--         sql/classify/part_statements.sql; $resolved_relation as sql/classify/created.sql;
--         $subset_relation (VARCHAR): the name of the caller's subset snapshots read (column
--         `snapshot`).
SELECT DISTINCT c.snapshot, coalesce(rs.target, c.qid) AS subject
FROM coverage AS c
LEFT JOIN query_table($resolved_relation) AS rs ON rs.qid = c.qid
WHERE c.snapshot IN (SELECT snapshot FROM query_table($subset_relation))
  AND ($part_kind = 'all' OR ($part_kind = 'range' AND c.qid >= $part_lo AND c.qid < $part_hi)
       OR ($part_kind = 'merged'
           AND c.qid IN (SELECT qid FROM query_table($merged_relation))));
