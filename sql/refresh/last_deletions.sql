-- name: last_deletions
-- purpose: The last deletion or undeletion of each entity between the base's date and the
--          refresh's (kgdiff refresh, docs/refresh.md): from a logging dump, the events after
--          the end of the base's date and at or before the end of the refresh's, the latest
--          wins (their order in the dump breaks ties); a list of ids tells no time: its ids
--          are deleted at the end, after every revision.
-- params: reads the relation `deletions(entity, timestamp, action, position)` ('' timestamp:
--         from a list of ids); $after, $cutoff (VARCHAR 'YYYY-MM-DDTHH:MM:SSZ').
SELECT
    entity AS qid,
    arg_max(action, (coalesce(nullif(timestamp, ''), '9999'), position)) AS action,
    max(coalesce(nullif(timestamp, ''), '9999')) AS happened
FROM deletions
WHERE timestamp = '' OR (timestamp > $after AND timestamp <= $cutoff)
GROUP BY entity
ORDER BY entity
