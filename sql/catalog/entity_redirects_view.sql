-- name: entity_redirects_view
-- purpose: Every snapshot's entity rows of the items some snapshot holds as a redirect (a
--          merged item), which is all the classification needs to follow merges
--          (sql/classify/classify.sql, redirects). A view over `entities` in the catalog; the
--          lookup copy (kgdiff/query/lookup.py) holds it as a small table, so a question about
--          one subject does not read every entity row of the store to learn the merges.
-- params: none.
CREATE OR REPLACE VIEW entity_redirects AS
SELECT e.snapshot, e.qid, e.redirect_to
FROM entities AS e
WHERE e.qid IN (SELECT r.qid FROM entities AS r WHERE r.redirect_to IS NOT NULL);
