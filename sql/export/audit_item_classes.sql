-- name: audit_item_classes
-- purpose: For `kgdiff export audit`: the classes of items (the registered table
--          `audit_items(item)`): the objects of their instance-of (P31) and subclass-of
--          (P279) statements that are not deprecated, in any snapshot; one row per
--          (item, class).
-- params: none. Reads the view `statements` and the registered table `audit_items`.
SELECT DISTINCT s.subject AS item, s.object_qid AS class
FROM audit_items AS i
JOIN statements AS s ON s.subject = i.item
WHERE s.pid IN ('P31', 'P279') AND s.object_qid IS NOT NULL AND s.rank <> 'deprecated'
ORDER BY item, class;
