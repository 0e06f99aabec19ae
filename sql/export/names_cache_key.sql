-- name: names_cache_key
-- purpose: What the tables of `kgdiff_export_names` were built from: the store's fingerprint
--          $tag (sql/query/store_tag.sql) and the language $lang; a naming query on a store
--          whose fingerprint or language differs builds them again.
-- params: $tag (VARCHAR); $lang (VARCHAR).
CREATE OR REPLACE TABLE kgdiff_export_names.cache_key AS
SELECT CAST($tag AS VARCHAR) AS tag, CAST($lang AS VARCHAR) AS lang;
