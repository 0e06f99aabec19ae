-- name: subject_page
-- purpose: The article of an entity in a Wikipedia snapshot, linked as `candidates` links
--          them (the sitelinks of any Wikidata snapshot; a main-namespace page that is not a
--          redirect and whose text is not hidden): the page the evidence build searched for
--          the entity's objects. The lowest page id when sitelinks of several snapshots name
--          different pages.
-- params: $snapshot (Wikipedia snapshot name); $qid (the entity).
SELECT p.page_id, p.title, p.revision_id, p.timestamp
FROM pages AS p
SEMI JOIN sitelinks AS l ON l.site = p.wiki AND l.title = p.title AND l.qid = $qid
WHERE p.snapshot = $snapshot AND p.namespace = 0 AND p.redirect IS NULL
  AND NOT coalesce(p.text_deleted, FALSE)
ORDER BY p.page_id
LIMIT 1;
