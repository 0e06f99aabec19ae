-- name: copy_latest_labels
-- purpose: The label of every entity in every language as sql/labels/entity_labels.sql gives
--          it when no snapshot is named: from the latest snapshot that has one (two snapshots
--          of one date: the first by name). A table of the lookup copy, sorted by language and
--          id, so the labels of an answer are a read of the few row groups holding them
--          instead of a ranking of every snapshot's labels per question. Tests hold it equal
--          to entity_labels.
-- params: none (reads the catalog's `labels` and `snapshots` views).
CREATE TABLE lookup.latest_labels AS
SELECT
    l.lang,
    l.qid,
    arg_min(l.value, (latest.day - s.date, l.snapshot)) AS label
FROM labels AS l
JOIN snapshots AS s ON s.name = l.snapshot
CROSS JOIN (SELECT max(date) AS day FROM snapshots) AS latest
WHERE l.kind = 'label'
GROUP BY l.lang, l.qid
ORDER BY l.lang, l.qid;
