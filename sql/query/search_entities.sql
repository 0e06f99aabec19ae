-- name: search_entities
-- purpose: Entities to choose from as a user types: the entity whose id is $qid, and those
--          whose label or alias in $lang starts with $text (case-insensitive), in any snapshot.
--          Best first: the id, an exact label, a label prefix, an alias prefix; then shorter
--          labels, then smaller ids. Each entity once, with its label and description from
--          the latest snapshot that has them (English also from the entities' own columns,
--          for snapshots ingested without a labels table in English).
-- params: $text (VARCHAR; '' matches no label); $qid (VARCHAR id or NULL); $lang (VARCHAR);
--         $limit (INTEGER).
WITH hits AS (
    SELECT
        qid,
        CASE
            WHEN kind = 'label' AND lower(value) = lower($text) THEN 1
            WHEN kind = 'label' THEN 2
            ELSE 3
        END AS rank
    FROM labels
    WHERE lang = $lang AND kind IN ('label', 'alias')
      AND $text <> '' AND starts_with(lower(value), lower($text))
    UNION ALL
    SELECT
        qid,
        CASE
            WHEN lower(label_en) = lower($text) THEN 1
            WHEN starts_with(lower(label_en), lower($text)) THEN 2
            ELSE 3
        END AS rank
    FROM entities
    WHERE $lang = 'en' AND $text <> ''
      AND (starts_with(lower(label_en), lower($text))
           OR list_bool_or(list_transform(aliases_en, lambda a: starts_with(lower(a), lower($text)))))
    UNION ALL
    SELECT qid, 0 AS rank
    FROM entities
    WHERE qid = $qid
),
best AS (
    SELECT qid, min(rank) AS rank FROM hits GROUP BY qid
),
names AS (
    SELECT l.qid, l.kind, l.value, s.date
    FROM labels AS l
    JOIN snapshots AS s ON s.name = l.snapshot
    SEMI JOIN best AS b ON b.qid = l.qid
    WHERE l.lang = $lang AND l.kind IN ('label', 'description')
    UNION ALL
    SELECT e.qid, n.kind, n.value, s.date
    FROM entities AS e
    JOIN snapshots AS s ON s.name = e.snapshot
    SEMI JOIN best AS b ON b.qid = e.qid,
         LATERAL (
             SELECT 'label' AS kind, e.label_en AS value
             UNION ALL SELECT 'description', e.description_en
         ) AS n
    WHERE $lang = 'en' AND n.value IS NOT NULL
),
shown AS (
    SELECT
        qid,
        arg_max(value, date) FILTER (WHERE kind = 'label') AS label,
        arg_max(value, date) FILTER (WHERE kind = 'description') AS description
    FROM names
    GROUP BY qid
)
SELECT
    b.qid,
    CASE b.rank WHEN 0 THEN 'id' WHEN 3 THEN 'alias' ELSE 'label' END AS match,
    s.label,
    s.description
FROM best AS b
LEFT JOIN shown AS s ON s.qid = b.qid
ORDER BY b.rank, length(s.label) NULLS LAST, length(b.qid), b.qid
LIMIT $limit;
