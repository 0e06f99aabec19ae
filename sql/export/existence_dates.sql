-- name: existence_dates
-- purpose: For the benchmark export's rule on answers that did not exist yet: each entity id
--          of $ids with `began`, the earliest day its inception (P571) may be (the least
--          time_lo of its inception statements in any snapshot), and `ended`, the latest day
--          its end may be (the greatest time_hi of its dates of death, P570, and of
--          dissolution, P576); NULL where it has none, and an id with neither is absent.
--          Deprecated statements and statements without a value do not count. Sorted by id.
-- params: $ids (VARCHAR[]). Reads the view `statements`.
SELECT
    s.subject AS qid,
    min(s.time_lo) FILTER (WHERE s.pid = 'P571') AS began,
    max(s.time_hi) FILTER (WHERE s.pid IN ('P570', 'P576')) AS ended
FROM statements AS s
WHERE s.subject IN (SELECT unnest(CAST($ids AS VARCHAR[])))
  AND s.pid IN ('P571', 'P570', 'P576')
  AND s.rank <> 'deprecated'
  AND s.snaktype = 'value'
  AND s.time_lo IS NOT NULL
GROUP BY s.subject
ORDER BY s.subject;
