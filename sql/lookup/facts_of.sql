-- name: facts_of
-- purpose: One subject's facts in a facts copy (kgdiff/query/facts_copies.py), as facts_at
--          gives them, in property order.
-- params: $subject (VARCHAR).
SELECT *
FROM facts.facts
WHERE subject = $subject
ORDER BY pid;
