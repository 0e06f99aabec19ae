-- name: view_sql
-- purpose: The statement that made a view of the catalog (`pageviews`: the files it reads),
--          for kgdiff store check to compare with the folders.
-- params: $view (VARCHAR) the view's name.
SELECT sql FROM duckdb_views() WHERE NOT internal AND view_name = $view;
