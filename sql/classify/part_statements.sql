-- name: part_statements
-- purpose: Catalog macro `kgdiff_part_statements(part_kind, part_lo, part_hi,
--          merged_relation)`: the statements of one part of a classification
--          (kgdiff/temporal/chunks.py), in one place for sql/classify/classify.sql and
--          sql/staleness/curve.sql: every statement ($part_kind = 'all'), those of the
--          subjects in [$part_lo, $part_hi) that no merge touches ('range'), or those of the
--          subjects a merge touches ('merged'). Parameters are constants, so DuckDB scans only
--          the branch of $part_kind, and a subject range only the row groups that can hold it.
--          Rows of the view `statements`, all its columns.
-- params: $part_kind ('all' | 'range' | 'merged'); $part_lo, $part_hi (VARCHAR);
--         $merged_relation (VARCHAR): the name of the caller's relation (a CTE is fine: read
--         with query_table) of the subjects a merge touches, column `qid`.
SELECT * FROM statements
WHERE $part_kind = 'all'
UNION ALL
SELECT * FROM statements
WHERE $part_kind = 'range' AND subject >= $part_lo AND subject < $part_hi
  AND subject NOT IN (SELECT qid FROM query_table($merged_relation))
UNION ALL
SELECT * FROM statements
WHERE $part_kind = 'merged' AND subject IN (SELECT qid FROM query_table($merged_relation));
