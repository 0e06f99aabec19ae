-- name: chain_hop_starts
-- purpose: A stage of sql/chains/chains.sql: the start qualifiers (P580) of the hops of the
--          chains of `chain_walk` in the snapshot read, as Wikidata writes them (`dates`,
--          earliest first) and as the first day they may denote (`lo`, a day number: a start
--          before the common era, or billions of years ago, is no DATE a client can read).
--          One row per hop's statement that has one.
-- params: none. Reads the relations `chain_reading` and `chain_walk`, the view
--         `qualifiers` and the macro `kgdiff_stored_lo`.
SELECT
    q.statement_id,
    list(q.value ORDER BY kgdiff_stored_lo(q.time_lo, q.value), q.value) AS dates,
    min(kgdiff_stored_lo(q.time_lo, q.value)) AS lo
FROM qualifiers AS q
WHERE q.snapshot = (SELECT r.snapshot FROM chain_reading AS r)
  AND q.qualifier_pid = 'P580' AND q.snaktype = 'value' AND q.value_type = 'time'
  AND q.statement_id IN (
      SELECT unnest([h.statement_id FOR h IN c.hops]) FROM chain_walk AS c
  )
GROUP BY q.statement_id;
