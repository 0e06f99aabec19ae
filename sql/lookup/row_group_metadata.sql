-- name: row_group_metadata
-- purpose: What the DuckDB instance keeps in memory of its tables' row groups (their columns'
--          segments and statistics, loaded as queries read them and kept until the database
--          is closed), in bytes: DuckDB reports it under the tag BASE_TABLE.
-- params: none.
SELECT coalesce(sum(memory_usage_bytes), 0)
FROM duckdb_memory()
WHERE tag = 'BASE_TABLE';
