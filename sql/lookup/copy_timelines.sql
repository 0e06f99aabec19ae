-- name: copy_timelines
-- purpose: Every subject's timeline in the lookup copy (kgdiff/query/lookup.py), made by the
--          catalog's own `timeline` macro (sql/timeline/timeline.sql) for each subject, so an
--          entity's timeline is a read of its rows (sql/timeline/timeline_copied.sql), not
--          an aggregation planned and run per question: the same rows either way.
-- params: none (reads the catalog's `statements` view and `timeline` macro).
CREATE TABLE lookup.timelines AS
SELECT e.subject, t.*
FROM (SELECT DISTINCT subject FROM statements) AS e,
     LATERAL timeline(e.subject) AS t
ORDER BY e.subject;
