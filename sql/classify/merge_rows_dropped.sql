-- name: merge_rows_dropped
-- purpose: Drop the temporary copy of the rows merges are read from
--          (sql/classify/merge_rows_kept.sql), so that a connection used again afterwards
--          (a graph cursor of the service) reads the catalog's view, current after a refresh.
-- params: none.
DROP TABLE IF EXISTS temp.entity_redirects;
