-- name: drop_build_classify
-- purpose: Drop the temporary `classify` macro of sql/updates/build_classify.sql: the
--          connection's `classify` is the catalog's again.
-- params: none.
DROP MACRO TABLE IF EXISTS temp.classify;
