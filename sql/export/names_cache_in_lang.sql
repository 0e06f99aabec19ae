-- name: names_cache_in_lang
-- purpose: For the benchmark export's names (sql/export/entity_names.sql): the labels and
--          aliases in $lang of every entity in every snapshot, kept while the export runs in
--          {{@names}}, an attached in-memory database of $lang
--          (kgdiff/export/words/names_cache.py). Each naming query read them from the labels'
--          files twice (~1.1 CPU-s each time at 3 × 5 M statements, however few the ids: the
--          files are sorted by id, the ids' filter reaches them only as a range).
-- params: $lang (VARCHAR); {{@names}} (the attached database). Reads the view `labels`.
CREATE OR REPLACE TABLE {{@names}}.in_lang AS
SELECT l.snapshot, l.qid, l.kind, l.value, l.ordinal
FROM labels AS l
WHERE l.lang = $lang AND l.kind IN ('label', 'alias');
