-- name: entity_dates
-- purpose: For the benchmark export's rules on answers that did not exist yet and on people
--          who could not have held a role in the year asked: every entity with a date of
--          inception (P571), birth (P569), death (P570) or dissolution (P576), read once per
--          export into a file that each part of the export filters for its ids. `began`, the
--          earliest day its inception may be (the least time_lo of its inception statements
--          in any snapshot); `ended`, the latest day its end may be (the greatest time_hi of
--          its dates of death and of dissolution); `born`, the year of the earliest day its
--          birth may be; `died`, the year of the latest day its death may be (years as DuckDB
--          counts them: 1 BCE is 0). NULL where it has none. Deprecated statements and
--          statements without a value do not count. Sorted by id.
-- params: none. Reads the view `statements`.
SELECT
    s.subject AS qid,
    min(s.time_lo) FILTER (WHERE s.pid = 'P571') AS began,
    max(s.time_hi) FILTER (WHERE s.pid IN ('P570', 'P576')) AS ended,
    year(min(s.time_lo) FILTER (WHERE s.pid = 'P569')) AS born,
    year(max(s.time_hi) FILTER (WHERE s.pid = 'P570')) AS died
FROM statements AS s
WHERE s.pid IN ('P569', 'P570', 'P571', 'P576')
  AND s.rank <> 'deprecated'
  AND s.snaktype = 'value'
  AND s.time_lo IS NOT NULL
GROUP BY s.subject
ORDER BY s.subject;
