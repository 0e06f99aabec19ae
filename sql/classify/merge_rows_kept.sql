-- name: merge_rows_kept
-- purpose: The rows merges are read from (the catalog's view `entity_redirects`,
--          sql/catalog/entity_redirects_view.sql) kept as a temporary table of this connection,
--          for a classification or a staleness curve run in parts (kgdiff/temporal/parts.py):
--          each part follows the merges (sql/classify/merge_targets.sql), and each read of the
--          view scans every snapshot's entity rows twice, so the parts of a store read them a
--          number of times that grows with the store (3 x 25 M statements: 11 parts of 5.2 M
--          entity rows each). The table holds the same rows and shadows the view (temporary
--          objects come first) for as long as the connection is open (parts.classifying
--          closes it after the parts).
-- params: none.
CREATE TEMP TABLE entity_redirects AS
SELECT snapshot, qid, redirect_to FROM entity_redirects;
