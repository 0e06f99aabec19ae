-- name: base_entities
-- purpose: The entities of the base snapshot among the ids a refresh touches, with how many
--          statements and sitelinks each has (kgdiff refresh: a revision of one of them is a
--          change, of another an addition; the refreshed snapshot's counts are the base's, less
--          the rows of these, plus the delta's own). One row an entity: the base's statements
--          and sitelinks are not read for their counts.
-- params: $base (VARCHAR) the base snapshot; reads the catalog view `entities` and the
--         relation `touched(qid)`.
SELECT e.qid, e.n_statements, e.n_sitelinks
FROM entities AS e
WHERE e.snapshot = $base AND e.qid IN (SELECT t.qid FROM touched AS t)
