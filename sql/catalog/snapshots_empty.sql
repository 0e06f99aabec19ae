-- name: snapshots_empty
-- purpose: Catalog view `snapshots` for a store that has no published snapshot yet.
-- params: none.
CREATE OR REPLACE VIEW snapshots AS
SELECT
    NULL::VARCHAR AS name, NULL::DATE AS date, NULL::VARCHAR AS kind, NULL::DATE AS dump_date,
    NULL::VARCHAR AS source_path, NULL::BIGINT AS source_size, NULL::VARCHAR AS source_sha256,
    NULL::VARCHAR AS source_compression, NULL::VARCHAR AS source_format,
    NULL::BIGINT AS source_limit, NULL::BIGINT AS entities, NULL::BIGINT AS statements,
    NULL::BIGINT AS qualifiers, NULL::BIGINT AS labels, NULL::BIGINT AS sitelinks,
    NULL::BIGINT AS rejects, NULL::VARCHAR AS tool_version, NULL::VARCHAR AS duckdb_version,
    NULL::TIMESTAMP AS created_at, NULL::VARCHAR AS coverage, NULL::VARCHAR AS base
WHERE false;
