-- name: lifespans
-- purpose: For the benchmark export's rule on people who could not have held a role in the
--          year a record asks about: each entity id of $ids with `born`, the year of the
--          earliest day its birth (P569) may be (the least time_lo of its dates of birth in any
--          snapshot), and `died`, the year of the latest day its death (P570) may be (the
--          greatest time_hi of its dates of death); NULL where it has none, and an id with
--          neither is absent. Deprecated statements and statements without a value do not
--          count. Years as DuckDB counts them (1 BCE is 0). Sorted by id.
-- params: $ids (VARCHAR[]). Reads the view `statements`.
SELECT
    s.subject AS qid,
    year(min(s.time_lo) FILTER (WHERE s.pid = 'P569')) AS born,
    year(max(s.time_hi) FILTER (WHERE s.pid = 'P570')) AS died
FROM statements AS s
WHERE s.subject IN (SELECT unnest(CAST($ids AS VARCHAR[])))
  AND s.pid IN ('P569', 'P570')
  AND s.rank <> 'deprecated'
  AND s.snaktype = 'value'
  AND s.time_lo IS NOT NULL
GROUP BY s.subject
ORDER BY s.subject;
