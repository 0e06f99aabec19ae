-- name: copy_names
-- purpose: The lookup copy's search index (kgdiff/query/lookup_build.py), the languages of
--          [$lo, $hi) of it: every label and alias of every snapshot, and the English label and
--          aliases of the entities table, once each, as sql/query/search_hits.sql matches
--          them: the text lowercased (`key`), the entity, `kind` ('label' or 'alias': what its
--          rank depends on) and `matched` (the length search_hits.sql orders by: the value's
--          for a labels row, the entity's English label's for an entities row). Appended
--          sorted by language and key, so that the ranges in order leave the table sorted so
--          and the entities whose label starts with a text are a range of a few row groups
--          (sql/query/search_hits_copied.sql) instead of a scan of every label. One statement
--          over every language ran out of the writer's 1 GB at 3 × 100 M statements: its
--          DISTINCT held every label of every snapshot (sql/lookup/names_languages.sql sizes
--          the ranges).
-- params: $lo, $hi (VARCHAR) the language range [lo, hi) (reads the catalog's `labels` and
--         `entities`).
INSERT INTO lookup.names
SELECT DISTINCT lang, key, qid, kind, matched
FROM (
    SELECT lang, lower(value) AS key, qid, kind, length(value) AS matched
    FROM labels
    WHERE kind IN ('label', 'alias') AND lang >= $lo AND lang < $hi
    UNION ALL
    SELECT 'en', lower(label_en), qid, 'label', length(label_en)
    FROM entities
    WHERE label_en IS NOT NULL AND 'en' >= $lo AND 'en' < $hi
    UNION ALL
    SELECT 'en', lower(unnest(aliases_en)), qid, 'alias', length(label_en)
    FROM entities
    WHERE 'en' >= $lo AND 'en' < $hi
)
WHERE key IS NOT NULL
ORDER BY lang, key, qid;
