-- name: page_texts
-- purpose: The pages of a Wikipedia snapshot in one page-id range (sql/evidence/page_ranges.sql)
--          that have candidate facts, with their lead and whole plain text, the candidate
--          facts as a list (in fact order, so that a build writes the same file each time),
--          and the names of the facts' targets (every name of every target of the page, each
--          once: entity, term, kind, demonym, by entity then labels first), in page order.
--          The names come with their page so that the build holds one batch of pages' names
--          at a time, not every target's (at 3 x 100 M statements those took ~3 GB as Python
--          objects); the range bounds the lists DuckDB gathers, which cannot spill.
-- params: $snapshot (Wikipedia snapshot name); $lo, $hi (BIGINT: the range's page ids, both
--         included); reads the temporary tables evidence_candidates and evidence_terms
--         (sql/evidence/terms.sql).
WITH grouped AS (
    SELECT page_id,
           list({'subject': subject, 'pid': pid, 'object_qid': object_qid,
                 'target': target, 'page_role': page_role}
                ORDER BY subject, pid, object_qid, page_role) AS facts
    FROM evidence_candidates
    WHERE page_id BETWEEN $lo AND $hi
    GROUP BY page_id
),
page_names AS (
    SELECT c.page_id,
           list({'entity': t.qid, 'term': t.term, 'kind': t.kind, 'demonym': t.demonym}
                ORDER BY t.qid, t.kind DESC, t.term) AS names
    FROM (
        SELECT DISTINCT page_id, target FROM evidence_candidates
        WHERE page_id BETWEEN $lo AND $hi
    ) AS c
    JOIN evidence_terms AS t ON t.qid = c.target
    GROUP BY c.page_id
)
SELECT p.wiki, p.page_id, p.title, p.revision_id, p.timestamp, p.lead, p.text, g.facts,
       n.names
FROM pages AS p
JOIN grouped AS g USING (page_id)
LEFT JOIN page_names AS n USING (page_id)
WHERE p.snapshot = $snapshot AND p.namespace = 0 AND p.redirect IS NULL
  AND p.page_id BETWEEN $lo AND $hi
ORDER BY p.page_id;
