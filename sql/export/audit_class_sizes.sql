-- name: audit_class_sizes
-- purpose: For `kgdiff export audit`: how many items labelled in $lang each class (the
--          registered table `audit_classes(class)`: the classes of the gold items) has in
--          any snapshot of the store, as the subjects of instance-of (P31) or subclass-of
--          (P279) statements that are not deprecated; one row per class that has any.
-- params: $lang the labels' language. Reads the views `statements` and `labels` and the
--         registered table `audit_classes`.
WITH
members AS (
    SELECT DISTINCT s.object_qid AS class, s.subject
    FROM statements AS s
    JOIN audit_classes AS c ON c.class = s.object_qid
    WHERE s.pid IN ('P31', 'P279') AND s.rank <> 'deprecated'
)
SELECT m.class, count(*) AS members
FROM members AS m
SEMI JOIN labels AS l ON l.qid = m.subject AND l.lang = $lang AND l.kind = 'label'
GROUP BY m.class
ORDER BY m.class;
