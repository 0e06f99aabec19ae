-- name: catalog_objects
-- purpose: What the attached catalog (the current database) holds: its views, tables and
--          macros, each as (kind, name, comment), kind 'view', 'table', 'macro' (scalar) or
--          'table_macro', so a rebuild can tell whether the macros it would make are there
--          already, marked by kgdiff.
-- params: none; run with the catalog as the current database (USE catalog).
SELECT 'view' AS kind, view_name AS name, coalesce(comment, '') AS comment
FROM duckdb_views()
WHERE database_name = current_database() AND NOT internal
UNION ALL
SELECT 'table', table_name, coalesce(comment, '')
FROM duckdb_tables()
WHERE database_name = current_database()
UNION ALL
SELECT DISTINCT function_type, function_name, coalesce(comment, '')
FROM duckdb_functions()
WHERE database_name = current_database() AND NOT internal AND function_type IN ('macro', 'table_macro');
