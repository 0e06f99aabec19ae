-- name: present
-- purpose: Which of the entities asked for (`--entities`) a snapshot holds, so that an id it
--          does not hold is refused before anything is written.
-- params: {{files}} the snapshot's entities Parquet files; $entities the ids asked for.
SELECT qid
FROM read_parquet({{files}})
WHERE list_contains($entities, qid)
