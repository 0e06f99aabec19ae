-- name: copy_labels_view
-- purpose: The lookup copy's `labels`: the rows of its `label_rows`
--          (sql/lookup/copy_labels_empty.sql), one per snapshot that holds each, with the
--          catalog view's columns in its order. A question's filters on the id reach the
--          table's scan, so one entity's labels are still a read of the row groups holding it.
-- params: {{@shard}} a range's schema in the copy, or main (over the union of the ranges'
--         label_rows, sql/lookup/shard_view.sql) (identifier).
CREATE VIEW lookup.{{@shard}}.labels AS
SELECT unnest(snapshots) AS snapshot, qid, kind, lang, value, ordinal
FROM label_rows;
