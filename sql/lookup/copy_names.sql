-- name: copy_names
-- purpose: The lookup copy's search index (kgdiff/query/lookup_build.py): every label and alias
--          of every snapshot, and the English label and aliases of the entities table, once
--          each, as sql/query/search_hits.sql matches them: the text lowercased (`key`), the
--          entity, `kind` ('label' or 'alias': what its rank depends on) and `matched` (the
--          length search_hits.sql orders by: the value's for a labels row, the entity's
--          English label's for an entities row). Sorted by language and key, so that the
--          entities whose label starts with a text are a range of a few row groups
--          (sql/query/search_hits_copied.sql) instead of a scan of every label.
-- params: none (reads the catalog's `labels` and `entities`).
CREATE TABLE lookup.names AS
SELECT DISTINCT lang, key, qid, kind, matched
FROM (
    SELECT lang, lower(value) AS key, qid, kind, length(value) AS matched
    FROM labels
    WHERE kind IN ('label', 'alias')
    UNION ALL
    SELECT 'en', lower(label_en), qid, 'label', length(label_en)
    FROM entities
    WHERE label_en IS NOT NULL
    UNION ALL
    SELECT 'en', lower(unnest(aliases_en)), qid, 'alias', length(label_en)
    FROM entities
)
WHERE key IS NOT NULL
ORDER BY lang, key, qid;
