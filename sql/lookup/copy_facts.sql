-- name: copy_facts
-- purpose: A facts copy (kgdiff/query/facts_copies.py): every subject's facts at one date,
--          by the catalog's facts_at (the classification's rules), sorted by subject so that
--          one subject's rows are a few row groups. Dates past the data are checked by the
--          caller, as for one subject's facts. Written whole into a scratch database, then
--          cut into the lookup copy's subject ranges (sql/lookup/copy_facts_range.sql).
-- params: $day (DATE); $mode ('record' | 'valid'); {{@whole}} the scratch database
--         (identifier).
CREATE TABLE {{@whole}}.facts AS
SELECT *
FROM facts_at(CAST($day AS DATE), mode := $mode, allow_gap := true)
ORDER BY subject, pid;
