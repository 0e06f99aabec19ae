-- name: audit_item_statements
-- purpose: For `kgdiff export audit`, in one scan of the statements (four scans cost ~0.4 s
--          each at 3 × 5 M statements): what the store says of the items the distractors name
--          (the registered table `audit_items(item)`) and the records' subjects hold of them
--          (the registered table `audit_subjects(subject)`), from statements that are not
--          deprecated, in any snapshot. One row per distinct (subject, pid, object_qid,
--          class_of, role_of, to_item): `class_of`, the statement gives an item a class (its
--          instance-of (P31) or subclass-of (P279) value); `role_of`, a role (its sex (P21),
--          an occupation (P106) or a position held (P39)); `to_item`, its object is an item.
--          `subject` is null on a row that is only `to_item` and whose subject is not one of
--          `audit_subjects` (only the item's property is read of it, and all such rows of an
--          item and a property are one).
-- params: none. Reads the view `statements` and the registered tables `audit_items` and
--         `audit_subjects`.
WITH
marked AS (
    SELECT
        s.subject,
        s.pid,
        s.object_qid,
        s.object_qid IS NOT NULL AND s.subject IN (SELECT item FROM audit_items) AS of_item,
        s.object_qid IN (SELECT item FROM audit_items) AS to_item
    FROM statements AS s
    WHERE s.rank <> 'deprecated'
)
SELECT DISTINCT
    CASE
        WHEN of_item OR subject IN (SELECT subject FROM audit_subjects) THEN subject
    END AS subject,
    pid,
    object_qid,
    of_item AND pid IN ('P31', 'P279') AS class_of,
    of_item AND pid IN ('P21', 'P106', 'P39') AS role_of,
    to_item
FROM marked
WHERE (of_item AND pid IN ('P31', 'P279', 'P21', 'P106', 'P39')) OR to_item;
