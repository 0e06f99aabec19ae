-- name: audit_subject_items
-- purpose: For `kgdiff export audit`: which of the items the distractors name (the
--          registered table `audit_items(item)`) the records' subjects (the registered table
--          `audit_subjects(subject)`) hold as values of statements that are not deprecated,
--          in any snapshot; one row per (subject, pid, item).
-- params: none. Reads the view `statements` and the registered tables `audit_subjects` and
--         `audit_items`.
SELECT DISTINCT s.subject, s.pid, s.object_qid AS item
FROM audit_subjects AS a
JOIN statements AS s ON s.subject = a.subject
JOIN audit_items AS i ON i.item = s.object_qid
WHERE s.rank <> 'deprecated'
ORDER BY s.subject, s.pid, item;
