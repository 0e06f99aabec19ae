-- name: entity_leads
-- purpose: For the benchmark export's wording (whether a name takes "the"): the start of the
--          lead of each entity's article on one wiki, as the latest Wikidata snapshot links
--          it, in the Wikipedia snapshot $wiki_snapshot of that wiki (the latest one: how an
--          article writes its own name does not depend on the date). Entities without such
--          an article are absent. Sorted by id.
-- params: $site (VARCHAR, e.g. 'enwiki'); $wiki_snapshot (VARCHAR). Reads the ids from the
--         relation `kgdiff_name_ids(qid)` the caller registers
--         (kgdiff/export/words/name_ids.py), the views `sitelinks`, `snapshots` and `pages`.
WITH
titles AS (
    SELECT l.qid, arg_max(l.title, s.date) AS title
    FROM sitelinks AS l
    JOIN snapshots AS s ON s.name = l.snapshot
    WHERE l.site = $site
      AND l.qid IN (SELECT qid FROM kgdiff_name_ids)
    GROUP BY l.qid
)
SELECT t.qid, left(p.lead, 600) AS lead
FROM titles AS t
JOIN pages AS p ON p.title = t.title
WHERE p.snapshot = $wiki_snapshot
  AND p.namespace = 0
  AND p.redirect IS NULL
  AND NOT coalesce(p.text_deleted, FALSE)
  AND length(trim(coalesce(p.lead, ''))) > 0
ORDER BY t.qid;
