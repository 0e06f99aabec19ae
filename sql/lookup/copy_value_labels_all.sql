-- name: copy_value_labels_all
-- purpose: The labels a timeline shows of its values, for every subject of the lookup copy
--          at once (kgdiff/query/lookup_build.py cuts it into the subject ranges'
--          `value_labels`, sql/lookup/copy_value_labels.sql, then drops it): for each
--          (subject, value) of the copy's timelines whose value is an entity, or a quantity
--          whose unit is one, that entity's label in $lang by the rule of
--          sql/labels/latest_labels.sql (the label of the latest snapshot that has one; of
--          two snapshots of one date, the first by name). A value whose entity has no label
--          in $lang has no row. One join over the whole copy: per range, the labels of
--          values spread over every range cost a scan of each range's labels per question.
-- params: $lang (VARCHAR, e.g. 'en').
CREATE TABLE lookup.main.value_labels_all AS
WITH latest AS (
    SELECT r.qid, arg_min(r.value, (day.day - s.date, s.name)) AS label
    FROM lookup.main.label_rows AS r
    JOIN lookup.main.snapshots AS s ON s.name = r.snapshots[-1]
    CROSS JOIN (SELECT max(date) AS day FROM lookup.main.snapshots) AS day
    WHERE r.kind = 'label' AND r.lang = $lang
    GROUP BY r.qid
),
named AS (
    SELECT DISTINCT
        subject,
        value,
        CASE
            WHEN regexp_full_match(value, '[QPL][1-9][0-9]*') THEN value
            ELSE regexp_extract(value, '^[+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?\|([QPL][1-9][0-9]*)$', 1)
        END AS qid
    FROM lookup.main.timelines
    WHERE value IS NOT NULL
)
SELECT n.subject, n.value, l.label
FROM named AS n
JOIN latest AS l ON l.qid = n.qid
ORDER BY n.subject, n.value;
