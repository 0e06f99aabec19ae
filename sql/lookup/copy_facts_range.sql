-- name: copy_facts_range
-- purpose: One subject range of a facts copy (kgdiff/query/facts_copies.py): the rows of the
--          whole facts (sql/lookup/copy_facts.sql) whose subject lies in [$lo, $hi), in the
--          range's schema of the copy, as the lookup copy keeps its tables
--          (sql/lookup/shard_view.sql): one subject's facts are then a read of its range's
--          table, whose row groups are few whatever the store's size.
-- params: $lo, $hi (VARCHAR) the range; {{@shard}} its schema (identifier); {{@whole}} the
--         scratch database holding the whole facts (identifier).
CREATE TABLE facts.{{@shard}}.facts AS
SELECT *
FROM {{@whole}}.facts
WHERE subject >= $lo AND subject < $hi
ORDER BY subject, pid;
