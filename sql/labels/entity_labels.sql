-- name: entity_labels
-- purpose: A label of each entity id in $label_ids (items, properties, lexemes' lemmas are
--          not labels) in language $label_lang, as of snapshot $label_snapshot: the label in
--          that snapshot when it has one, else in the latest earlier snapshot that has one,
--          else in the earliest later one (an entity a subset snapshot does not hold).
--          One row per id that has a label anywhere: id, label, label_snapshot. Ids without a
--          label are absent (callers show the id itself and count it).
--          Reads the views `labels(snapshot, qid, kind, lang, value)` and `snapshots(name, date)`.
--          (The parameters are named label_* so that no column name shadows them in the macro.)
-- params: $label_ids (VARCHAR[]); $label_snapshot (VARCHAR, NULL = the latest snapshot);
--         $label_lang (VARCHAR, e.g. 'en').
WITH
anchor AS (
    SELECT coalesce(
        (SELECT s.date FROM snapshots AS s WHERE s.name = $label_snapshot),
        (SELECT max(s.date) FROM snapshots AS s)
    ) AS day
),
found AS (
    SELECT
        l.qid, l.value, l.snapshot,
        -- this snapshot first, then earlier ones from the nearest, then later ones
        CASE WHEN l.snapshot = $label_snapshot THEN 0 WHEN s.date <= a.day THEN 1 ELSE 2 END
            AS tier,
        abs(s.date - a.day) AS distance
    FROM labels AS l
    JOIN snapshots AS s ON s.name = l.snapshot
    CROSS JOIN anchor AS a
    WHERE l.qid IN (SELECT unnest(CAST($label_ids AS VARCHAR[])))
      AND l.kind = 'label' AND l.lang = $label_lang
)
SELECT
    qid AS id,
    arg_min(value, (tier, distance, snapshot)) AS label,
    arg_min(snapshot, (tier, distance, snapshot)) AS label_snapshot
FROM found
GROUP BY qid;
