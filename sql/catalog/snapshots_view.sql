-- name: snapshots_view
-- purpose: Catalog view `snapshots(name, date, ..., coverage)`: one row per published
--          snapshot, read from the manifests; `coverage` is 'full' or 'subset' (manifests
--          written before coverage was recorded are full); `duplicates` the entities left out
--          as repeated ids (0 in manifests written before they were counted); `base` the
--          snapshot one stored as a delta reads the rest of its rows from (kgdiff refresh;
--          NULL for one stored whole).
-- params: {{manifests}} list of manifest.json files, relative to the store root.
CREATE OR REPLACE VIEW snapshots AS
SELECT
    name,
    CAST(date AS DATE) AS date,
    kind,
    TRY_CAST(dump_date AS DATE) AS dump_date,
    source.path AS source_path,
    source.size AS source_size,
    source.sha256 AS source_sha256,
    source.compression AS source_compression,
    source.format AS source_format,
    source."limit" AS source_limit,
    CAST(counts.entities AS BIGINT) AS entities,
    CAST(counts.statements AS BIGINT) AS statements,
    CAST(counts.qualifiers AS BIGINT) AS qualifiers,
    CAST(counts.labels AS BIGINT) AS labels,
    CAST(counts.sitelinks AS BIGINT) AS sitelinks,
    rejects,
    coalesce(duplicates, 0) AS duplicates,
    tool_version,
    duckdb_version,
    CAST(created_at AS TIMESTAMP) AS created_at,
    coalesce(coverage, 'full') AS coverage,
    delta.base AS base
FROM read_json(
    kgdiff_store_files({{manifests}}),
    format = 'unstructured',
    columns = {
        name: 'VARCHAR', date: 'VARCHAR', kind: 'VARCHAR', dump_date: 'VARCHAR',
        source: 'STRUCT(path VARCHAR, size BIGINT, sha256 VARCHAR, compression VARCHAR, format VARCHAR, "limit" BIGINT)',
        counts: 'STRUCT(entities BIGINT, statements BIGINT, qualifiers BIGINT, labels BIGINT, sitelinks BIGINT)',
        rejects: 'BIGINT', duplicates: 'BIGINT', tool_version: 'VARCHAR', duckdb_version: 'VARCHAR', created_at: 'VARCHAR',
        coverage: 'VARCHAR', delta: 'STRUCT(base VARCHAR)'
    }
);
