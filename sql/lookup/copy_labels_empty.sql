-- name: copy_labels_empty
-- purpose: The labels of the lookup copy, made empty (kgdiff/query/lookup_build.py): each
--          label, description and alias once (`label_rows`: id, language, kind, ordinal, value)
--          with the snapshots that hold it (`snapshots`: the last is the one whose label a
--          question naming no snapshot takes, sql/lookup/copy_labels.sql), instead of once
--          per snapshot: the snapshots repeat most of them. The view `labels` gives the catalog view's rows back (one per
--          snapshot, its columns in its order), so the SQL that reads `labels` reads the copy
--          unchanged; sql/lookup/copy_labels.sql fills the table range by range.
-- params: {{@shard}} the range's schema in the copy (identifier) (the columns' types are the catalog's `labels`').
CREATE TABLE lookup.{{@shard}}.label_rows AS
SELECT qid, lang, kind, ordinal, value, [snapshot] AS snapshots
FROM labels
LIMIT 0;
