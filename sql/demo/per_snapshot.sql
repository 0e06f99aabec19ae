-- name: per_snapshot
-- purpose: Demo: entities and statements per snapshot, from the catalog views.
-- params: none.
SELECT s.name, s.entities, count(st.statement_id) AS statements
FROM snapshots AS s
LEFT JOIN statements AS st ON st.snapshot = s.name
GROUP BY s.name, s.entities, s.date
ORDER BY s.date;
