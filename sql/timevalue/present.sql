-- name: present
-- purpose: Whether the open database defines the time value macros (sql/timevalue/): a
--          catalog made by an older kgdiff lacks them until the next rebuild.
-- params: $names (VARCHAR[]: the macros' names).
SELECT count(DISTINCT function_name) = len(CAST($names AS VARCHAR[]))
FROM duckdb_functions()
WHERE function_type = 'macro' AND list_contains(CAST($names AS VARCHAR[]), function_name);
