-- name: names_cache_label_counts
-- purpose: How many labels in the export's language each snapshot has (in `in_lang` of
--          {{@names}}), which tells in how many parts sql/export/names_cache_namesakes.sql
--          reads them.
-- params: {{@names}} (the attached database).
SELECT snapshot, count(*) AS labels
FROM {{@names}}.in_lang
WHERE kind = 'label'
GROUP BY snapshot
ORDER BY snapshot;
