-- name: value_labels
-- purpose: The labels in the copy's language (kgdiff.ids.DEFAULT_LANG) of the values of an
--          entity's timeline, read from the lookup copy's `value_labels` of the entity's
--          subject range (sql/lookup/copy_value_labels.sql): one row per value that names an
--          entity with a label (the entity itself, or a quantity's unit): value, label.
-- params: $qid the entity (e.g. 'Q42').
SELECT value, label
FROM value_labels
WHERE subject = $qid;
