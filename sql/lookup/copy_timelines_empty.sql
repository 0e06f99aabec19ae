-- name: copy_timelines_empty
-- purpose: The lookup copy's timelines table, made empty with the columns of the catalog's
--          `timeline` macro after the subject; sql/lookup/copy_timelines.sql fills it.
-- params: {{@shard}} the range's schema in the copy (identifier).
CREATE TABLE lookup.{{@shard}}.timelines AS
SELECT CAST(NULL AS VARCHAR) AS subject, t.*
FROM timeline('') AS t
LIMIT 0;
