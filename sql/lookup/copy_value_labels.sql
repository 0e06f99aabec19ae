-- name: copy_value_labels
-- purpose: One subject range's part of sql/lookup/copy_value_labels_sorted.sql, in the
--          range's schema: the labels its timelines show of their values, sorted by
--          subject (as read), so that a timeline's are one read of the row groups of its
--          subject (sql/timeline/value_labels.sql).
-- params: $lo, $hi (VARCHAR) the subject range; {{@shard}} its schema (identifier).
CREATE TABLE lookup.{{@shard}}.value_labels AS
SELECT subject, value, label
FROM scratch.value_labels_all
WHERE subject >= $lo AND subject < $hi;
