-- name: tables
-- purpose: The names of the tables and views of the open database (lower-case), the only
--          names that SHOW <name> may describe: any other name SHOW takes for a setting and
--          answers with its value (kgdiff/query/sql_reach.py).
-- params: none.
SELECT DISTINCT lower(table_name) AS name FROM duckdb_tables()
UNION
SELECT DISTINCT lower(view_name) FROM duckdb_views();
