-- name: copy_table
-- purpose: One table of the lookup copy (kgdiff/query/lookup.py): a catalog view's rows, in
--          DuckDB's own storage and sorted by the id a question looks up, so that a question
--          about one entity reads the few row groups that hold it (their min/max) instead of
--          decoding a Parquet row group of hundreds of thousands of rows.
-- params: {{@table}} the view and the table (identifier); {{@key}} the id column it is
--         sorted by (identifier).
CREATE TABLE lookup.{{@table}} AS
SELECT * FROM {{@table}}
ORDER BY {{@key}}, snapshot;
