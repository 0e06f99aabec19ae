-- name: copy_table_range
-- purpose: One subject range of a table of the lookup copy (kgdiff/query/lookup_build.py): the
--          catalog view's rows whose id lies in [$lo, $hi), sorted by that id and snapshot and
--          appended, so that the ranges in order leave the table sorted by id and a question
--          about one entity reads the few row groups that hold it (their min/max) instead of
--          decoding a Parquet row group of hundreds of thousands of rows. The snapshots' files
--          are sorted by id, so the range reads only their row groups that can hold it.
-- params: {{@table}} the view and the table (identifier); {{@key}} the id column (identifier);
--         {{@shard}} the range's schema in the copy (identifier);
--         $lo, $hi (VARCHAR) the range.
INSERT INTO lookup.{{@shard}}.{{@table}}
SELECT * FROM {{@table}}
WHERE {{@key}} >= $lo AND {{@key}} < $hi
ORDER BY {{@key}}, snapshot;
