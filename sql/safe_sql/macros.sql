-- name: macros
-- purpose: Every macro of the open database with the SQL it stands for, which
--          kgdiff/query/sql_reach.py checks in place of a call of it: DuckDB's own (internal)
--          and the catalog's (classify, timeline, kgdiff_store_files, ...). A scalar macro's
--          definition is an expression, a table macro's a query. One row per overload.
-- params: none.
SELECT
    lower(function_name) AS name,
    function_type = 'table_macro' AS in_from,
    macro_definition AS sql,
    NOT internal AS trusted
FROM duckdb_functions()
WHERE macro_definition IS NOT NULL AND function_type IN ('macro', 'table_macro');
