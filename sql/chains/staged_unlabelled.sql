-- name: staged_unlabelled
-- purpose: The entity ids that the first $n staged chains (temporary table `chain_results`)
--          show without a label: their label column repeats the id (sql/chains/chains.sql).
-- params: $n (INTEGER, NULL = all).
WITH shown AS (
    SELECT * FROM chain_results ORDER BY rowid LIMIT $n
),
hops AS (
    SELECT unnest(s.hops) AS h FROM shown AS s
)
SELECT DISTINCT x.id
FROM (
    SELECT s.start_subject AS id, s.start_label AS label FROM shown AS s
    UNION ALL SELECT h.pid, h.pid_label FROM hops
    UNION ALL SELECT h.object, h.object_label FROM hops
) AS x
WHERE x.id = x.label
ORDER BY x.id;
