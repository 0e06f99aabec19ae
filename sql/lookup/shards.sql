-- name: shards
-- purpose: The lookup copy's subject ranges and their schemas, in id order
--          (sql/lookup/copy_shards.sql).
-- params: {{@copy}} the copy's database as attached (identifier).
SELECT name, lo, hi
FROM {{@copy}}.main.shards
ORDER BY lo;
