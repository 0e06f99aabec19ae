-- name: sitelink_titles
-- purpose: For the benchmark export: the title of each entity's article on one wiki, as the
--          latest snapshot dated at or before $day links it (page views are kept by title).
-- params: $ids (VARCHAR[]); $site (VARCHAR, e.g. 'enwiki'); $day (DATE). Reads the views
--         `sitelinks` and `snapshots`.
SELECT l.qid, arg_max(l.title, s.date) AS title
FROM sitelinks AS l
JOIN snapshots AS s ON s.name = l.snapshot
WHERE l.site = $site
  AND s.date <= $day
  AND l.qid IN (SELECT unnest(CAST($ids AS VARCHAR[])))
GROUP BY l.qid
ORDER BY l.qid;
