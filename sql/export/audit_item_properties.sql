-- name: audit_item_properties
-- purpose: For `kgdiff export audit`: the properties of which items (the registered table
--          `audit_items(item)`) are the object of a statement that is not deprecated, in any
--          snapshot; one row per (item, pid).
-- params: none. Reads the view `statements` and the registered table `audit_items`.
SELECT DISTINCT s.object_qid AS item, s.pid
FROM audit_items AS i
JOIN statements AS s ON s.object_qid = i.item
WHERE s.rank <> 'deprecated'
ORDER BY item, s.pid;
