-- name: entity_names
-- purpose: For the benchmark export: each entity id of $ids that has a label in $lang, with
--          that label (as the catalog macro `entity_labels` chooses it: the snapshot
--          $snapshot first, then the nearest earlier one, then the nearest later one), the
--          aliases in $lang of the same snapshot in their order, and its classes (P31) in
--          that snapshot. Ids without a label are absent. Sorted by id.
-- params: $ids (VARCHAR[]); $snapshot (VARCHAR, NULL = the latest snapshot); $lang (VARCHAR).
--         Reads the views `labels`, `entities` and `snapshots`.
WITH
named AS (
    SELECT id, label, label_snapshot
    FROM entity_labels(CAST($ids AS VARCHAR[]), label_snapshot := $snapshot, label_lang := $lang)
),
aliases AS (
    SELECT l.qid, list(l.value ORDER BY l.ordinal) AS aliases
    FROM labels AS l
    JOIN named AS n ON n.id = l.qid AND n.label_snapshot = l.snapshot
    WHERE l.kind = 'alias' AND l.lang = $lang
    GROUP BY l.qid
)
SELECT
    n.id,
    n.label,
    coalesce(a.aliases, CAST([] AS VARCHAR[])) AS aliases,
    coalesce(e.p31, CAST([] AS VARCHAR[])) AS classes
FROM named AS n
LEFT JOIN aliases AS a ON a.qid = n.id
LEFT JOIN entities AS e ON e.qid = n.id AND e.snapshot = n.label_snapshot
ORDER BY n.id;
