-- name: typical_roles
-- purpose: For the benchmark export's distractors (docs/benchmark-export.md#option-kind-agreement):
--          the roles typical of the people each relation of $pids names, in any snapshot
--          (statements that are not deprecated): an occupation (P106) or a position held
--          (P39) held by at least half of the relation's objects that hold one, when at least
--          $floor of them hold one (a head of government's distractors are politicians).
--          `pid`, `role`, `share` (the part of those objects that hold it), sorted by pid
--          and role.
-- params: $pids (VARCHAR[]), $floor (INTEGER). Reads the view `statements`.
WITH
objects AS (
    SELECT DISTINCT s.pid, s.object_qid AS value
    FROM statements AS s
    WHERE s.pid IN (SELECT unnest(CAST($pids AS VARCHAR[])))
      AND s.object_qid IS NOT NULL
      AND s.rank <> 'deprecated'
),
jobs AS (
    SELECT DISTINCT s.subject AS value, s.object_qid AS role
    FROM statements AS s
    WHERE s.pid IN ('P106', 'P39')
      AND s.object_qid IS NOT NULL
      AND s.rank <> 'deprecated'
),
held AS (
    SELECT o.pid, o.value, j.role
    FROM objects AS o
    JOIN jobs AS j ON j.value = o.value
),
people AS (
    SELECT h.pid, count(DISTINCT h.value) AS n
    FROM held AS h
    GROUP BY h.pid
),
counted AS (
    SELECT h.pid, h.role, count(*) AS k
    FROM held AS h
    GROUP BY h.pid, h.role
)
SELECT c.pid, c.role, c.k / p.n AS share
FROM counted AS c
JOIN people AS p ON p.pid = c.pid
WHERE c.k * 2 >= p.n AND p.n >= $floor
ORDER BY c.pid, c.role;
