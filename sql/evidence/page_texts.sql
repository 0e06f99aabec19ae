-- name: page_texts
-- purpose: The pages of a Wikipedia snapshot that have candidate facts, with their lead and
--          whole plain text and the candidate facts as a list, in page order.
-- params: $snapshot (Wikipedia snapshot name); reads the temporary table evidence_candidates.
WITH grouped AS (
    SELECT page_id,
           list({'subject': subject, 'pid': pid, 'object_qid': object_qid,
                 'target': target, 'page_role': page_role}) AS facts
    FROM evidence_candidates
    GROUP BY page_id
)
SELECT p.wiki, p.page_id, p.title, p.revision_id, p.timestamp, p.lead, p.text, g.facts
FROM pages AS p JOIN grouped AS g USING (page_id)
WHERE p.snapshot = $snapshot AND p.namespace = 0 AND p.redirect IS NULL
ORDER BY p.page_id;
