-- name: copy_value_labels_sorted
-- purpose: The rows of sql/lookup/copy_value_labels_all.sql sorted by subject and value, so
--          that each subject range's part (sql/lookup/copy_value_labels.sql) is a read of its
--          row groups, not a scan of every subject's labels.
-- params: none.
CREATE TABLE scratch.value_labels_all AS
SELECT subject, value, label
FROM scratch.value_labels_joined
ORDER BY subject, value;
