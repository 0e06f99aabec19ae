-- name: search_names
-- purpose: The label and description in $lang of each entity of $qids, from the latest
--          snapshot that has one (English also from the entities' own columns, for
--          snapshots ingested without English labels): the names of sql/query/search_hits.sql's
--          entities. A separate statement so that only these entities' rows are read.
-- params: $qids (VARCHAR[]); $lang (VARCHAR).
SELECT
    qid,
    arg_max(value, date) FILTER (WHERE kind = 'label') AS label,
    arg_max(value, date) FILTER (WHERE kind = 'description') AS description
FROM (
    SELECT l.qid, l.kind, l.value, s.date
    FROM labels AS l
    JOIN snapshots AS s ON s.name = l.snapshot
    WHERE l.lang = $lang AND l.kind IN ('label', 'description')
      AND list_contains(CAST($qids AS VARCHAR[]), l.qid)
    UNION ALL
    SELECT e.qid, n.kind, n.value, s.date
    FROM entities AS e
    JOIN snapshots AS s ON s.name = e.snapshot,
         LATERAL (
             SELECT 'label' AS kind, e.label_en AS value
             UNION ALL SELECT 'description', e.description_en
         ) AS n
    WHERE $lang = 'en' AND n.value IS NOT NULL AND list_contains(CAST($qids AS VARCHAR[]), e.qid)
) AS names
GROUP BY qid;
