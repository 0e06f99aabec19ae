-- name: update_pages
-- purpose: AntiLeakBench's knowledge updates (the `updates` macro) with the article of the
--          subject in a wiki, from the sitelinks of the latest snapshot that has one; the
--          supporting revision is searched after `new_start_lo`. With the labels of subject,
--          property and new object in $lang.
-- params: $cutoff, $current (DATE, checked against the store by the library first);
--         $wiki (e.g. 'enwiki'); $pids (VARCHAR[], empty = all); $max_gap (INTEGER);
--         $lang (VARCHAR).
WITH pages AS (
    SELECT qid, arg_max(title, date) AS title
    FROM sitelinks AS l JOIN snapshots AS s ON s.name = l.snapshot
    WHERE l.site = $wiki
    GROUP BY qid
)
SELECT
    u.subject, u.pid, u.new_object, u.old_objects, u.new_start_lo, p.title,
    u.subject_label, u.pid_label, u.new_object_label, u.snapshot, u.gap_days
FROM updates(
    CAST($cutoff AS DATE), CAST($current AS DATE),
    pids := CAST($pids AS VARCHAR[]), max_gap := $max_gap, allow_gap := true, lang := $lang
) AS u
LEFT JOIN pages AS p ON p.qid = u.subject
ORDER BY u.subject, u.pid, u.new_object;
