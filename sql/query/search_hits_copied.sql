-- name: search_hits_copied
-- purpose: sql/query/search_hits.sql on a lookup copy: the same hits, ranks and order, read
--          from the copy's `names` index (sql/lookup/copy_names.sql) as a range of keys
--          instead of a scan of every label and entity.
-- params: $text (VARCHAR); $qid (VARCHAR or NULL); $lang (VARCHAR); $limit (INTEGER).
SELECT qid, min(rank) AS rank, min(matched) AS matched
FROM (
    SELECT
        qid,
        CASE
            WHEN kind = 'label' AND key = lower($text) THEN 1
            WHEN kind = 'label' THEN 2
            ELSE 3
        END AS rank,
        matched
    FROM names
    WHERE lang = $lang AND $text <> ''
      AND key >= lower($text) AND key < lower($text) || chr(1114111)
      AND starts_with(key, lower($text))
    UNION ALL
    SELECT qid, 0 AS rank, 0 AS matched
    FROM entities
    WHERE qid = $qid
) AS hits
GROUP BY qid
ORDER BY rank, matched, length(qid), qid
LIMIT $limit;
