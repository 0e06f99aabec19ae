-- name: series_years
-- purpose: For the benchmark export's wording of a measurement series (a population, a
--          number of employees): each value of each group ($subjects[i], $pids[i]) in
--          $snapshot with `year`, the latest year a statement of it gives as its point in
--          time (P585) to the year (a point whose bounds fall in one year); a value without
--          such a point is absent. Deprecated statements do not count. One row per
--          (subject, pid, value). Unsorted.
-- params: $subjects (VARCHAR[]), $pids (VARCHAR[]) of the same length; $snapshot (VARCHAR).
--         Reads the view `statements`.
WITH wanted AS (
    SELECT unnest(CAST($subjects AS VARCHAR[])) AS subject,
           unnest(CAST($pids AS VARCHAR[])) AS pid
)
SELECT s.subject, s.pid, s.value, max(year(s.point_lo)) AS year
FROM statements AS s
SEMI JOIN wanted AS w ON w.subject = s.subject AND w.pid = s.pid
WHERE s.snapshot = $snapshot
  AND s.rank <> 'deprecated'
  AND s.value IS NOT NULL
  AND s.point_snaktype = 'value'
  AND year(s.point_lo) = year(s.point_hi)
GROUP BY s.subject, s.pid, s.value;
