-- name: copy_entities_empty
-- purpose: The entities table of the lookup copy, made empty: the catalog view's columns but
--          `source_line` (where in its dump an entity was read: no question about an entity
--          reads it, and it is the column that compresses least after the descriptions).
--          sql/lookup/copy_entities.sql fills it range by range.
-- params: {{@shard}} the range's schema in the copy (identifier).
CREATE TABLE lookup.{{@shard}}.entities AS
SELECT COLUMNS(lambda c: c <> 'source_line')
FROM entities
LIMIT 0;
