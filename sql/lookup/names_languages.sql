-- name: names_languages
-- purpose: The languages of the catalog's labels and aliases with their rows (of every
--          snapshot; the English ones with the entities table's English labels and aliases
--          too), in language order: what kgdiff/query/lookup_build.py cuts the search index's
--          ranges of languages from (sql/lookup/copy_names.sql).
-- params: none (reads the catalog's `labels` and `entities`).
SELECT lang, sum(rows) AS rows
FROM (
    SELECT lang, count(*) AS rows
    FROM labels
    WHERE kind IN ('label', 'alias')
    GROUP BY lang
    UNION ALL
    SELECT 'en', count(*) + sum(len(coalesce(aliases_en, [])))
    FROM entities
)
GROUP BY lang
ORDER BY lang;
