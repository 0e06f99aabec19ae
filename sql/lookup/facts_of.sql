-- name: facts_of
-- purpose: One subject's facts in a facts copy (kgdiff/query/facts_copies.py), as facts_at
--          gives them, in property order, read from the schema of the subject's range
--          (sql/lookup/copy_facts_range.sql).
-- params: $subject (VARCHAR); {{@shard}} the schema of its range (identifier).
SELECT *
FROM facts.{{@shard}}.facts
WHERE subject = $subject
ORDER BY pid;
