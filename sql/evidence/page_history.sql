-- name: page_history
-- purpose: Every revision of one page in a Wikipedia snapshot (a history dump), in order,
--          with what the supporting-revision search needs.
-- params: $snapshot (Wikipedia snapshot name); $title (page title).
SELECT revision_id, timestamp, sha1, coalesce(tags, []) AS tags, text_deleted, lead
FROM revisions
WHERE snapshot = $snapshot AND title = $title
ORDER BY timestamp, revision_id;
