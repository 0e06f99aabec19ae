-- name: chain_aliases
-- purpose: A stage of sql/chains/chains.sql: the aliases in $lang of the answers (the last
--          hops' objects) of the chains of `chain_walk`, from the snapshot that gave the
--          answer's label (`chain_names`), in their order: one row per answer that has some.
-- params: $lang (VARCHAR). Reads the relations `chain_walk` and `chain_names` and the view
--         `labels`.
SELECT a.qid, list(a.value ORDER BY a.ordinal, a.value) AS aliases
FROM labels AS a
JOIN chain_names AS n ON n.id = a.qid AND n.label_snapshot = a.snapshot
WHERE a.kind = 'alias' AND a.lang = $lang
  AND a.qid IN (SELECT c.hops[-1].object FROM chain_walk AS c)
GROUP BY a.qid;
