-- name: candidates
-- purpose: The facts a Wikipedia snapshot may hold evidence for: every item-valued,
--          non-deprecated statement (any Wikidata snapshot) whose subject has an article in
--          the snapshot's wiki (page_role 'subject': the page should mention the object), and
--          whose object has one (page_role 'object': the page should mention the subject),
--          the latter only for objects with at most $max_incoming such facts (a country's
--          page cannot tell each of its millions of citizens). `target` is the entity the
--          page must mention. Pages are linked through the sitelinks of every Wikidata snapshot.
-- params: $snapshot (Wikipedia snapshot name); $max_incoming (BIGINT).
WITH
page AS (
    SELECT page_id, title, wiki FROM pages
    WHERE snapshot = $snapshot AND namespace = 0 AND redirect IS NULL AND text IS NOT NULL
),
page_entity AS (
    SELECT DISTINCT p.page_id, l.qid
    FROM page AS p JOIN sitelinks AS l ON l.site = p.wiki AND l.title = p.title
),
facts AS (
    SELECT DISTINCT subject, pid, object_qid FROM statements
    WHERE object_qid IS NOT NULL AND rank <> 'deprecated' AND subject <> object_qid
),
small_objects AS (
    SELECT object_qid FROM facts GROUP BY object_qid HAVING count(*) <= $max_incoming
)
SELECT e.page_id, f.subject, f.pid, f.object_qid, f.object_qid AS target, 'subject' AS page_role
FROM page_entity AS e JOIN facts AS f ON f.subject = e.qid
UNION ALL
SELECT e.page_id, f.subject, f.pid, f.object_qid, f.subject AS target, 'object' AS page_role
FROM page_entity AS e
JOIN facts AS f ON f.object_qid = e.qid
SEMI JOIN small_objects AS s ON s.object_qid = f.object_qid;
