-- name: wikipedia_snapshots_view
-- purpose: Catalog view `wikipedia_snapshots(name, date, wiki, ...)`: one row per published
--          Wikipedia snapshot, read from the manifests.
-- params: {{manifests}} list of manifest.json files, relative to the store root.
CREATE OR REPLACE VIEW wikipedia_snapshots AS
SELECT
    name,
    CAST(date AS DATE) AS date,
    wiki,
    TRY_CAST(dump_date AS DATE) AS dump_date,
    source.path AS source_path,
    source.size AS source_size,
    source.sha256 AS source_sha256,
    source.compression AS source_compression,
    CAST(counts.pages AS BIGINT) AS pages,
    CAST(counts.revisions AS BIGINT) AS revisions,
    tool_version,
    CAST(created_at AS TIMESTAMP) AS created_at
FROM read_json(
    kgdiff_store_files({{manifests}}),
    format = 'unstructured',
    columns = {
        name: 'VARCHAR', date: 'VARCHAR', wiki: 'VARCHAR', dump_date: 'VARCHAR',
        source: 'STRUCT(path VARCHAR, size BIGINT, sha256 VARCHAR, compression VARCHAR)',
        counts: 'STRUCT(pages BIGINT, revisions BIGINT)',
        tool_version: 'VARCHAR', created_at: 'VARCHAR'
    }
);
