-- name: copy_entities
-- purpose: One id range of the lookup copy's entities (the columns of
--          sql/lookup/copy_entities_empty.sql), sorted by id and snapshot and appended, as
--          sql/lookup/copy_table_range.sql does for the other tables.
-- params: $lo, $hi (VARCHAR) the id range [lo, hi); {{@shard}} its schema (identifier).
INSERT INTO lookup.{{@shard}}.entities
SELECT COLUMNS(lambda c: c <> 'source_line')
FROM entities
WHERE qid >= $lo AND qid < $hi
ORDER BY qid, snapshot;
