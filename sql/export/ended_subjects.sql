-- name: ended_subjects
-- purpose: For the benchmark export's wording (past tense): the entity ids of $ids that no
--          longer exist on $day, as the snapshots up to $snapshot record them: a date of
--          death (P570), of dissolution, abolition or demolition (P576), an end time
--          (P582), a discontinued date (P2669), a service retirement (P730) or a date of
--          official closure (P3999) that may be on or before $day, or a death at an
--          unknown date (P570 somevalue; an unknown dissolution date may lie in the future,
--          as Earth's does); or a birth (P569) more than 130 years before $day.
--          Deprecated statements do not count. Sorted by id.
-- params: $ids (VARCHAR[]); $snapshot (VARCHAR, NULL = every snapshot); $day (DATE).
--         Reads the views `statements` and `snapshots`.
WITH
upto AS (
    SELECT name
    FROM snapshots
    WHERE $snapshot IS NULL
       OR date <= (SELECT date FROM snapshots WHERE name = $snapshot)
)
SELECT DISTINCT s.subject
FROM statements AS s
WHERE s.snapshot IN (SELECT name FROM upto)
  AND s.subject IN (SELECT unnest(CAST($ids AS VARCHAR[])))
  AND s.rank <> 'deprecated'
  AND (
      (s.pid IN ('P570', 'P576', 'P582', 'P2669', 'P730', 'P3999')
       AND ((s.snaktype = 'somevalue' AND s.pid = 'P570')
            OR (s.snaktype = 'value' AND s.time_lo <= $day)))
      OR (s.pid = 'P569' AND s.snaktype = 'value'
          AND s.time_hi < CAST($day AS DATE) - INTERVAL 130 YEAR)
  )
ORDER BY s.subject;
