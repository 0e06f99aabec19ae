-- name: builtin_functions
-- purpose: Every function DuckDB itself defines that a SELECT can call, by name (lower-case),
--          and whether it is called in FROM (a table function or table macro) rather than in
--          an expression: what scripts/sql_functions.py makes the allow-lists of
--          kgdiff/query/sql_guard.py from. PRAGMA functions are left out (a PRAGMA statement
--          is refused), and so are the catalog's own macros (not internal).
-- params: none.
SELECT DISTINCT
    lower(function_name) AS name,
    function_type IN ('table', 'table_macro') AS in_from
FROM duckdb_functions()
WHERE internal AND function_type <> 'pragma'
ORDER BY in_from, name;
