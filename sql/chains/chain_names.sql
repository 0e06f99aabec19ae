-- name: chain_names
-- purpose: A stage of sql/chains/chains.sql: the label in $lang of every id the chains of
--          `chain_walk` show (their start subjects, their hops' properties and objects) as of
--          the snapshot read (else the nearest snapshot that has one,
--          sql/labels/entity_labels.sql): one row per labelled id, `id`, `label`,
--          `label_snapshot`. Read once for every chain (each range of chains labelled apart
--          read every snapshot's labels again).
-- params: $lang (VARCHAR). Reads the relations `chain_reading` and `chain_walk` and the
--         macro `entity_labels`.
SELECT n.id, n.label, n.label_snapshot
FROM entity_labels(
    (SELECT list(DISTINCT x.id) FROM (
        SELECT c.origin AS id FROM chain_walk AS c
        UNION ALL SELECT unnest([h.pid FOR h IN c.hops]) FROM chain_walk AS c
        UNION ALL SELECT unnest([h.object FOR h IN c.hops]) FROM chain_walk AS c
    ) AS x),
    label_snapshot := (SELECT r.snapshot FROM chain_reading AS r),
    label_lang := $lang
) AS n;
