-- name: table_macros
-- purpose: The names of the table macros of the open database (the catalog's classify,
--          facts_at, timeline, ... and DuckDB's own), which a user's query may call beside the
--          built-in table functions kgdiff/query/sql_guard.py allows. Nobody but the catalog's
--          builder can create one: a user's CREATE MACRO is refused before it reaches DuckDB.
-- params: none.
SELECT DISTINCT lower(function_name) AS name
FROM duckdb_functions()
WHERE function_type = 'table_macro';
