-- name: implied
-- purpose: Catalog macro `kgdiff_implied(part_kind, part_lo, part_hi, merged_relation,
--          reads_relation)`: in valid time, the start a statement without temporal
--          qualifiers implicitly has (docs/classification.md), in one place for
--          sql/classify/classify.sql and sql/staleness/curve.sql: the subject's death (kind
--          'death', for causes and manners of death) or its start of existence ('existence'),
--          from the snapshots read in valid time. The part's statements are read again here
--          (sql/classify/part_statements.sql): a caller reading its own CTE of them twice
--          would materialise it. One row per (snapshot, subject, kind): lo, hi (DATE: the
--          earliest such date's first and last day).
--          Reads the view `statements`.
-- params: $part_kind, $part_lo, $part_hi, $merged_relation as
--         sql/classify/part_statements.sql; $reads_relation (VARCHAR): the name of the
--         caller's snapshot reads (columns `view`, `snapshot`; those of view 'valid' count).
SELECT
    st.snapshot, st.subject,
    CASE WHEN st.pid = 'P570' THEN 'death' ELSE 'existence' END AS kind,
    min(st.time_lo) AS lo,
    -- the earliest interval's end (the time_hi of the least time_lo): a struct's minimum,
    -- which Spark SQL computes too (time_lo and time_hi are both set or both NULL)
    min({'lo': st.time_lo, 'hi': st.time_hi}).hi AS hi
FROM kgdiff_part_statements($part_kind, $part_lo, $part_hi, $merged_relation) AS st
WHERE st.pid IN ('P570', 'P569', 'P571', 'P577', 'P575', 'P580')
  AND st.rank <> 'deprecated' AND st.snaktype = 'value' AND st.time_lo IS NOT NULL
  AND st.snapshot IN (SELECT snapshot FROM query_table($reads_relation) WHERE view = 'valid')
GROUP BY ALL;
