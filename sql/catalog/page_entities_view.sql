-- name: page_entities_view
-- purpose: Catalog view `page_entities(snapshot, wiki, page_id, title, qid, wikidata_snapshot)`:
--          the Wikipedia pages linked to Wikidata entities through sitelinks. Each Wikipedia
--          snapshot is linked through the latest Wikidata snapshot dated at or before it (else
--          the earliest one), so a page renamed later still finds its entity.
-- params: none (reads the catalog views `pages`, `sitelinks`, `snapshots`, `wikipedia_snapshots`).
CREATE OR REPLACE VIEW page_entities AS
WITH chosen AS (
    SELECT w.name AS snapshot,
           coalesce(
               max_by(s.name, s.date) FILTER (WHERE s.date <= w.date),
               min_by(s.name, s.date)
           ) AS wikidata_snapshot
    FROM wikipedia_snapshots AS w CROSS JOIN snapshots AS s
    GROUP BY w.name
)
SELECT p.snapshot, p.wiki, p.page_id, p.title, l.qid, c.wikidata_snapshot
FROM pages AS p
JOIN chosen AS c ON c.snapshot = p.snapshot
JOIN sitelinks AS l
  ON l.snapshot = c.wikidata_snapshot AND l.site = p.wiki AND l.title = p.title;
