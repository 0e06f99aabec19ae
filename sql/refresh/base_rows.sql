-- name: base_rows
-- purpose: How many rows of one table the base snapshot holds for the ids a refresh
--          touches: the rows its delta replaces (the refreshed snapshot's counts are the
--          base's, less these, plus its own).
-- params: {{@table}} the catalog view; {{@key}} its subject column; $base (VARCHAR); reads
--         the relation `touched(qid)`.
SELECT count(*) AS rows
FROM {{@table}} AS t
WHERE t.snapshot = $base AND t.{{@key}} IN (SELECT touched.qid FROM touched)
