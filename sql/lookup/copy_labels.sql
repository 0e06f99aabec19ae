-- name: copy_labels
-- purpose: The labels of the id range [$lo, $hi) in the lookup copy's `label_rows`
--          (sql/lookup/copy_labels_empty.sql): the rows of every snapshot grouped by all
--          their columns but the snapshot, with the snapshots holding each (repeated as
--          often as a snapshot repeats the row), in date order and of one date by name
--          descending, so that the last is the snapshot sql/labels/entity_labels.sql, naming
--          none, would take the row from (latest date, then first name). Appended sorted by
--          id, so the ranges in order leave the table sorted by id.
-- params: $lo, $hi (VARCHAR) the id range; {{@shard}} its schema (identifier) (reads the catalog's `labels` and `snapshots`).
INSERT INTO lookup.{{@shard}}.label_rows
SELECT
    l.qid,
    l.lang,
    l.kind,
    l.ordinal,
    l.value,
    list(l.snapshot ORDER BY s.date, l.snapshot DESC) AS snapshots
FROM labels AS l
JOIN snapshots AS s ON s.name = l.snapshot
WHERE l.qid >= $lo AND l.qid < $hi
GROUP BY l.qid, l.lang, l.kind, l.ordinal, l.value
ORDER BY l.qid, l.lang, l.kind, l.ordinal, l.value;
