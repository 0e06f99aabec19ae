-- name: copy_latest_labels
-- purpose: For sql/lookup/copy_value_labels_all.sql: the label in $lang of every entity of one
--          subject range of the lookup copy, by the rule of sql/labels/latest_labels.sql (the
--          label of the latest snapshot that has one; of two snapshots of one date, the first
--          by name), one row per entity that has one, added to the table of
--          sql/lookup/copy_latest_labels_empty.sql. A range at a time: an entity's labels all
--          lie in its range's `label_rows`, and one aggregation over every range's ran out of
--          the build's memory at 3 x 100 M statements (its states cannot spill).
-- params: $lang (VARCHAR, e.g. 'en'); {{@shard}} the range's schema (identifier).
INSERT INTO scratch.latest_labels_all
SELECT r.qid, arg_min(r.value, (day.day - s.date, s.name)) AS label
FROM lookup.{{@shard}}.label_rows AS r
JOIN lookup.main.snapshots AS s ON s.name = r.snapshots[-1]
CROSS JOIN (SELECT max(date) AS day FROM lookup.main.snapshots) AS day
WHERE r.kind = 'label' AND r.lang = $lang
GROUP BY r.qid;
