-- name: audit_relation_people
-- purpose: For `kgdiff export audit`: for each property of the registered table
--          `audit_pids(pid)`, the objects of its statements (any snapshot, not deprecated)
--          that hold an occupation (P106) or a position (P39) in any snapshot, with each
--          such role; one row per (pid, person, role). The audit counts from these which roles
--          most of a property's people hold.
-- params: none. Reads the view `statements` and the registered table `audit_pids`.
SELECT DISTINCT o.pid, o.object_qid AS person, r.object_qid AS role
FROM statements AS o
JOIN audit_pids AS p ON p.pid = o.pid
JOIN statements AS r ON r.subject = o.object_qid
WHERE o.object_qid IS NOT NULL AND o.rank <> 'deprecated'
  AND r.pid IN ('P106', 'P39') AND r.object_qid IS NOT NULL AND r.rank <> 'deprecated'
ORDER BY o.pid, person, role;
