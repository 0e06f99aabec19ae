-- name: snapshots
-- purpose: The Wikidata snapshots of the store, oldest first, as the query layer shows them.
-- params: none (reads the view `snapshots`).
SELECT name, date, coverage, kind, dump_date, entities, statements, qualifiers, labels,
       sitelinks, rejects, source_path, source_sha256, source_format, tool_version, created_at
FROM snapshots
ORDER BY date, name;
