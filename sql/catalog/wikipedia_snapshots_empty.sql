-- name: wikipedia_snapshots_empty
-- purpose: Catalog view `wikipedia_snapshots` for a store without a Wikipedia snapshot (same
--          columns as wikipedia_snapshots_view, no rows), so that queries over it answer
--          nothing instead of failing.
-- params: none.
CREATE OR REPLACE VIEW wikipedia_snapshots AS
SELECT
    NULL::VARCHAR AS name, NULL::DATE AS date, NULL::VARCHAR AS wiki, NULL::DATE AS dump_date,
    NULL::VARCHAR AS source_path, NULL::BIGINT AS source_size, NULL::VARCHAR AS source_sha256,
    NULL::VARCHAR AS source_compression, NULL::BIGINT AS pages, NULL::BIGINT AS revisions,
    NULL::VARCHAR AS tool_version, NULL::TIMESTAMP AS created_at
WHERE false;
