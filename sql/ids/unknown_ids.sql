-- name: unknown_ids
-- purpose: The ids of $ids that no snapshot knows: neither an entity (or redirect) of any
--          snapshot, nor a property any statement uses. Statements are read only for the ids
--          that are no entity (a property of a subset store may have no entity row).
-- params: $ids (VARCHAR[], normalised: 'Q42', 'P31').
WITH
asked AS (
    SELECT DISTINCT unnest(CAST($ids AS VARCHAR[])) AS id
),
no_entity AS (
    SELECT id FROM asked
    WHERE id NOT IN (SELECT e.qid FROM entities AS e WHERE e.qid IN (SELECT id FROM asked))
)
SELECT id FROM no_entity
WHERE id NOT IN (
    SELECT st.pid FROM statements AS st WHERE st.pid IN (SELECT id FROM no_entity)
)
ORDER BY id;
