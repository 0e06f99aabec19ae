-- name: update_pages
-- purpose: AntiLeakBench's knowledge updates (the `updates` macro) with the article of the
--          subject in a wiki, from the sitelinks of the latest snapshot that has one; the
--          supporting revision is searched after `new_start_lo`.
-- params: $cutoff, $current (DATE); $wiki (e.g. 'enwiki'); $pids (VARCHAR[], empty = all).
WITH pages AS (
    SELECT qid, arg_max(title, date) AS title
    FROM sitelinks AS l JOIN snapshots AS s ON s.name = l.snapshot
    WHERE l.site = $wiki
    GROUP BY qid
)
SELECT u.subject, u.pid, u.new_object, u.old_objects, u.new_start_lo, p.title
FROM updates(CAST($cutoff AS DATE), CAST($current AS DATE)) AS u
LEFT JOIN pages AS p ON p.qid = u.subject
WHERE len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), u.pid)
ORDER BY u.subject, u.pid, u.new_object;
