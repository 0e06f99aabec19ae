-- name: views
-- purpose: Every view of the open database with its CREATE VIEW statement, which
--          kgdiff/query/sql_reach.py checks in place of a reference to it: DuckDB's own
--          (duckdb_databases, information_schema.*, pg_catalog.*: internal) and the
--          catalog's (statements, entities, ...).
-- params: none.
SELECT lower(schema_name) AS schema, lower(view_name) AS name, sql, NOT internal AS trusted
FROM duckdb_views()
WHERE sql IS NOT NULL;
