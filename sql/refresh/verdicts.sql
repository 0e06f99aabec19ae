-- name: verdicts
-- purpose: What becomes of each entity row the change files gave (kgdiff refresh): 'kept'
--          (the entity's latest revision at or before the end of the refresh's date),
--          'superseded' (a later revision of it was read), 'after_date' (a JSON entity
--          modified after the date; XML readers skip those themselves) or 'deleted' (a
--          deletion came after it). The latest revision: the one with a time or revision id
--          before one without, then the latest time, the highest revision id, the input given
--          last, the record read last. Ordered by id, then input and record.
-- params: reads `occurrences(input, folder, batch, row, qid, lastrevid, modified,
--         source_line, redirect_to)`, `xml_revisions(input, record, revision_id, timestamp,
--         folder)` (folder: the part folder holding the page's rows, NULL: any; a page cut
--         into chunks has a part in each) and `last_deletions(qid, action, happened)`
--         (sql/refresh/last_deletions.sql);
--         $cutoff (VARCHAR 'YYYY-MM-DDTHH:MM:SSZ').
WITH timed AS (
    SELECT
        o.*,
        coalesce(r.timestamp, o.modified) AS revised_at,
        coalesce(r.revision_id, o.lastrevid) AS revision
    FROM occurrences AS o
    LEFT JOIN xml_revisions AS r
        ON r.input = o.input AND r.record = o.source_line AND coalesce(r.folder, o.folder) = o.folder
),
ranked AS (
    SELECT
        *,
        coalesce(revised_at > $cutoff, false) AS after_date,
        row_number() OVER (
            PARTITION BY qid, coalesce(revised_at > $cutoff, false)
            ORDER BY (revised_at IS NOT NULL OR revision IS NOT NULL) DESC, revised_at DESC NULLS LAST,
                     revision DESC NULLS LAST, input DESC, source_line DESC
        ) AS position
    FROM timed
)
SELECT
    r.input, r.folder, r.batch, r.row, r.qid, r.lastrevid, r.source_line, r.redirect_to,
    CASE
        WHEN r.after_date THEN 'after_date'
        WHEN r.position > 1 THEN 'superseded'
        WHEN d.action = 'delete' AND (r.revised_at IS NULL OR d.happened >= r.revised_at) THEN 'deleted'
        ELSE 'kept'
    END AS verdict
FROM ranked AS r
LEFT JOIN last_deletions AS d ON d.qid = r.qid
ORDER BY r.qid, r.input, r.source_line, r.folder
