-- name: merge_rows_present
-- purpose: Whether this connection already keeps the rows merges are read from
--          (sql/classify/merge_rows_kept.sql): one row when it does, none otherwise.
-- params: none.
SELECT 1 FROM duckdb_tables()
WHERE database_name = 'temp' AND table_name = 'entity_redirects';
