-- name: stale_hops
-- purpose: For the benchmark export's `multi_hop` config: which hop groups (subject, pid) of
--          chains read in $snapshot at $day, with the values (object) the chains read of
--          them (a row per value: a last hop may hold several), a later
--          snapshot shows to have changed by then: it records a value of the group none of the
--          chains read (or a statement without a value), not deprecated, that had begun on or
--          before $day (a start that surely came by then) and had not surely ended, which the
--          snapshot read had not yet recorded (Chile's head of state on
--          2014-06-01 read in a dump of 2013-12: Sebastián Piñera; the dump of 2014-10
--          records Michelle Bachelet from 2014-03-11); or, holding the subject, it holds no
--          value of the group at all: the statement was taken back as wrong (Chile's head of
--          government, Piñera in 2013-12, is gone in 2014-10: Chile's president heads its
--          state). A value replaced without its history is no sign (Poland's Donald Tusk,
--          followed by Ewa Kopacz from 2014-09-22).
--          One row per such group: `subject`, `pid`. Unsorted.
-- params: $snapshot (VARCHAR); $day (DATE). Reads the relation `stale_hops_read` (subject,
--         pid, object: the hops asked about) and the views `statements`, `entities` and
--         `snapshots`.
WITH
read AS (
    SELECT subject, pid, object FROM stale_hops_read
),
wanted AS (
    SELECT subject, pid, list(object) AS objects
    FROM read
    GROUP BY subject, pid
),
later AS (
    SELECT name
    FROM snapshots
    WHERE date > (SELECT date FROM snapshots WHERE name = $snapshot)
)
SELECT w.subject, w.pid
FROM statements AS s
JOIN wanted AS w ON w.subject = s.subject AND w.pid = s.pid
WHERE s.snapshot IN (SELECT name FROM later)
  AND s.rank <> 'deprecated'
  AND (s.value IS NULL OR NOT list_contains(w.objects, s.value))
  AND s.start_snaktype = 'value'
  AND s.start_hi <= CAST($day AS DATE)
  AND (s.end_snaktype IS DISTINCT FROM 'value' OR s.end_lo > CAST($day AS DATE))
UNION
SELECT w.subject, w.pid
FROM wanted AS w
JOIN later AS l ON EXISTS (
    SELECT 1 FROM entities AS e WHERE e.qid = w.subject AND e.snapshot = l.name
)
WHERE NOT EXISTS (
    SELECT 1
    FROM statements AS s
    WHERE s.snapshot = l.name AND s.subject = w.subject AND s.pid = w.pid
      AND s.rank <> 'deprecated'
);
