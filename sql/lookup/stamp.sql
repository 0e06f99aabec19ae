-- name: stamp
-- purpose: The store fingerprint (sql/query/store_tag.sql) the lookup copy was made from, so
--          a copy of another state of the store is never read.
-- params: $tag (VARCHAR).
CREATE TABLE lookup.kgdiff_lookup AS
SELECT CAST($tag AS VARCHAR) AS tag, current_timestamp AS created_at;
