-- name: coverage_empty
-- purpose: Catalog view `coverage(snapshot, qid)` for a store without a subset snapshot
--          (same columns as the table view over the subset snapshots' coverage tables, no
--          rows): the entities each subset snapshot knows about.
-- params: none.
CREATE OR REPLACE VIEW coverage AS
SELECT NULL::VARCHAR AS snapshot, NULL::VARCHAR AS qid
WHERE false;
