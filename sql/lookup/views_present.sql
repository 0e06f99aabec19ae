-- name: views_present
-- purpose: Which of the views the lookup copy is made of the catalog has (a catalog made by an
--          older kgdiff may lack one, e.g. entity_redirects, and is rebuilt first).
-- params: $names (VARCHAR[]).
SELECT view_name
FROM duckdb_views()
WHERE NOT internal AND list_contains(CAST($names AS VARCHAR[]), view_name);
