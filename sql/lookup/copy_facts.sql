-- name: copy_facts
-- purpose: A facts copy (kgdiff/query/facts_copies.py): every subject's facts at one date,
--          by the catalog's facts_at (the classification's rules), sorted by subject so that
--          one subject's rows are a few row groups. Dates past the data are checked by the
--          caller, as for one subject's facts.
-- params: $day (DATE); $mode ('record' | 'valid').
CREATE TABLE facts.facts AS
SELECT *
FROM facts_at(CAST($day AS DATE), mode := $mode, allow_gap := true)
ORDER BY subject, pid;
