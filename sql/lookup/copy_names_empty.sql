-- name: copy_names_empty
-- purpose: The lookup copy's search index, made empty (kgdiff/query/lookup_build.py): the
--          columns of sql/lookup/copy_names.sql, which fills it a range of languages at a time.
-- params: none (the columns' types are those the catalog's `labels` gives them).
CREATE TABLE lookup.names AS
SELECT lang, lower(value) AS key, qid, kind, length(value) AS matched
FROM labels
LIMIT 0;
