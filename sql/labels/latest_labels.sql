-- name: latest_labels
-- purpose: Labels of the ids $label_ids in language $label_lang from the lookup copy's
--          `latest_labels` table (sql/lookup/copy_latest_labels.sql): what
--          sql/labels/entity_labels.sql gives with no snapshot named. One row per id that has
--          a label: id, label.
-- params: $label_ids (VARCHAR[]); $label_lang (VARCHAR, e.g. 'en').
SELECT qid AS id, label
FROM latest_labels
WHERE lang = $label_lang
  AND qid IN (SELECT unnest(CAST($label_ids AS VARCHAR[])));
