-- name: names_cache_other_names
-- purpose: For the benchmark export's names (sql/export/entity_names.sql): every other name
--          (a label in any language, an alias in another language than $lang) of the entities
--          with an alias in $lang in some snapshot (what tells which of those aliases name the
--          entity: docs/benchmark-export.md#answers-and-aliases), in every snapshot. Kept
--          beside `in_lang` (sql/export/names_cache_in_lang.sql, which it reads) in the
--          attached in-memory database {{@names}} of $lang.
-- params: $lang (VARCHAR); {{@names}} (the attached database). Reads the view `labels` and
--         the table `in_lang` of {{@names}}.
CREATE OR REPLACE TABLE {{@names}}.other_names AS
SELECT l.snapshot, l.qid, l.kind, l.lang, l.value
FROM labels AS l
WHERE (l.kind = 'label' OR (l.kind = 'alias' AND l.lang <> $lang))
  AND l.qid IN (SELECT qid FROM {{@names}}.in_lang WHERE kind = 'alias');
