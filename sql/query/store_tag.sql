-- name: store_tag
-- purpose: A fingerprint of what the store's answers rest on: its Wikidata and Wikipedia
--          snapshots (names, dates, sources, creation times) and the catalog's views other
--          than the classification builds (their files: evidence, page views), with the
--          number of Wikidata snapshots. The REST service derives its ETags from it. A
--          connection's temporary views are not the store's: an Arrow table registered on it
--          (kgdiff/export/words/name_ids.py) is one, named anew at each registration.
-- params: none (reads the views `snapshots`, `wikipedia_snapshots` and `duckdb_views()`).
-- the view reads every manifest file: read them once
WITH snaps AS MATERIALIZED (SELECT name, date, coverage, source_sha256, created_at FROM snapshots)
SELECT
    md5(concat_ws('|',
        (SELECT string_agg(concat_ws(',', name, date, coverage, source_sha256, created_at), ';'
                           ORDER BY name) FROM snaps),
        (SELECT string_agg(concat_ws(',', name, date, source_sha256, created_at), ';'
                           ORDER BY name) FROM wikipedia_snapshots),
        (SELECT string_agg(sql, ';' ORDER BY view_name) FROM duckdb_views()
         WHERE NOT internal AND NOT temporary AND view_name NOT LIKE 'classified\_%' ESCAPE '\')
    )) AS tag,
    (SELECT count(*) FROM snaps) AS snapshots;
