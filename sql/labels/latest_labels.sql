-- name: latest_labels
-- purpose: Labels of the ids $label_ids in language $label_lang from the lookup copy's
--          `label_rows` (sql/lookup/copy_labels.sql): what sql/labels/entity_labels.sql gives
--          with no snapshot named (the label of the latest snapshot that has one; of two
--          snapshots of one date, the first by name), ranking each row by the last of its
--          snapshots (the one that rule takes it from) instead of every snapshot's rows. One row per id that has a label: id,
--          label.
-- params: $label_ids (VARCHAR[]); $label_lang (VARCHAR, e.g. 'en').
SELECT r.qid AS id, arg_min(r.value, (latest.day - s.date, s.name)) AS label
FROM label_rows AS r
JOIN snapshots AS s ON s.name = r.snapshots[-1]
CROSS JOIN (SELECT max(date) AS day FROM snapshots) AS latest
WHERE r.kind = 'label' AND r.lang = $label_lang
  AND r.qid IN (SELECT unnest(CAST($label_ids AS VARCHAR[])))
GROUP BY r.qid;
