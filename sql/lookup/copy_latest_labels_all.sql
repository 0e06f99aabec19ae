-- name: copy_latest_labels_all
-- purpose: For sql/lookup/copy_value_labels_all.sql: every entity's label in $lang in the
--          lookup copy by the rule of sql/labels/latest_labels.sql (the label of the latest
--          snapshot that has one; of two snapshots of one date, the first by name), one row
--          per entity that has one: qid, label. In the build's scratch database (removed
--          once the ranges' value_labels are made).
-- params: $lang (VARCHAR, e.g. 'en').
CREATE TABLE scratch.latest_labels_all AS
SELECT r.qid, arg_min(r.value, (day.day - s.date, s.name)) AS label
FROM lookup.main.label_rows AS r
JOIN lookup.main.snapshots AS s ON s.name = r.snapshots[-1]
CROSS JOIN (SELECT max(date) AS day FROM lookup.main.snapshots) AS day
WHERE r.kind = 'label' AND r.lang = $lang
GROUP BY r.qid;
