-- name: audit_item_roles
-- purpose: For `kgdiff export audit`: the sex (P21), occupations (P106) and positions held
--          (P39) of items (the registered table `audit_items(item)`) in any snapshot, from
--          statements that are not deprecated; one row per (item, pid, role).
-- params: none. Reads the view `statements` and the registered table `audit_items`.
SELECT DISTINCT s.subject AS item, s.pid, s.object_qid AS role
FROM audit_items AS i
JOIN statements AS s ON s.subject = i.item
WHERE s.pid IN ('P21', 'P106', 'P39') AND s.object_qid IS NOT NULL AND s.rank <> 'deprecated'
ORDER BY item, s.pid, role;
