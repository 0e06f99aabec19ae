-- name: range_label_rows
-- purpose: The rows of one subject range's `label_rows` (sql/lookup/copy_labels_empty.sql)
--          of the ids {{ids}}: joined by UNION ALL, one part per range the ids fall in, they
--          stand in for `label_rows` in a question about the labels of many entities
--          (kgdiff/query/labels.py), so that one query reads the few row groups of each range
--          that can hold them, instead of one query per range or every range's row groups.
-- params: {{@shard}} the range's schema (identifier); {{ids}} the ids (VARCHAR[], a literal).
SELECT *
FROM {{@shard}}.label_rows
WHERE qid IN (SELECT unnest(CAST({{ids}} AS VARCHAR[])))
