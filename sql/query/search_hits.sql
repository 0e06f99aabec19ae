-- name: search_hits
-- purpose: The entities to offer as a user types (kgdiff/query/search.py names them with
--          sql/query/search_names.sql): the entity whose id is $qid, and those whose label or
--          alias in $lang starts with $text (any case), in any snapshot (English also from
--          the entities' own columns, for snapshots ingested without English labels). Best
--          first: rank 0 the id, 1 an exact label, 2 a label's start, 3 an alias's start;
--          then shorter matched texts, then smaller ids. Each entity once.
-- params: $text (VARCHAR; '' matches no label); $qid (VARCHAR id or NULL); $lang (VARCHAR);
--         $limit (INTEGER).
SELECT qid, min(rank) AS rank, min(matched) AS matched
FROM (
    SELECT
        qid,
        CASE
            WHEN kind = 'label' AND lower(value) = lower($text) THEN 1
            WHEN kind = 'label' THEN 2
            ELSE 3
        END AS rank,
        length(value) AS matched
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
        END AS rank,
        length(label_en) AS matched
    FROM entities
    WHERE $lang = 'en' AND $text <> ''
      AND (starts_with(lower(label_en), lower($text))
           OR list_bool_or(list_transform(aliases_en, lambda a: starts_with(lower(a), lower($text)))))
    UNION ALL
    SELECT qid, 0 AS rank, 0 AS matched
    FROM entities
    WHERE qid = $qid
) AS hits
GROUP BY qid
ORDER BY rank, matched, length(qid), qid
LIMIT $limit;
