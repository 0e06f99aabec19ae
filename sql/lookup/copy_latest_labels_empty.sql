-- name: copy_latest_labels_empty
-- purpose: The table sql/lookup/copy_latest_labels.sql fills a subject range at a time, in the
--          build's scratch database: every entity's label in the default language by the rule
--          of sql/labels/latest_labels.sql, one row per entity that has one (qid, label).
-- params: none.
CREATE TABLE scratch.latest_labels_all (qid VARCHAR, label VARCHAR);
