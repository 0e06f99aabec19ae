-- name: copy_table_empty
-- purpose: One table of the lookup copy (kgdiff/query/lookup_build.py), made empty with the
--          catalog view's columns; sql/lookup/copy_table_range.sql fills it range by range.
-- params: {{@table}} the view and the table (identifier); {{@shard}} the range's schema in
--         the copy (identifier).
CREATE TABLE lookup.{{@shard}}.{{@table}} AS
SELECT * FROM {{@table}}
LIMIT 0;
