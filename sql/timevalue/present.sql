-- name: present
-- purpose: Whether the open database defines the helper macros (the time value macros of
--          sql/timevalue/, kgdiff_pooled, the classification's rules kgdiff_merge_targets, …):
--          a catalog made by an older kgdiff lacks some until the next rebuild.
-- params: $names (VARCHAR[]: the macros' names).
SELECT count(DISTINCT function_name) = len(CAST($names AS VARCHAR[]))
FROM duckdb_functions()
WHERE function_type IN ('macro', 'table_macro') AND list_contains(CAST($names AS VARCHAR[]), function_name);
