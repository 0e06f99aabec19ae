-- name: names_cache_key
-- purpose: What the names' tables of the attached database {{@names}} were built from: the
--          store's fingerprint $tag (sql/query/store_tag.sql); a naming query on a store whose
--          fingerprint differs builds them again.
-- params: $tag (VARCHAR); {{@names}} (the attached database).
CREATE OR REPLACE TABLE {{@names}}.cache_key AS
SELECT CAST($tag AS VARCHAR) AS tag;
