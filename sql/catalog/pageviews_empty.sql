-- name: pageviews_empty
-- purpose: Catalog view `pageviews` for a store that has no page view source yet (same
--          columns as pageviews_view, no rows).
-- params: none.
CREATE OR REPLACE VIEW pageviews AS
SELECT
    NULL::VARCHAR AS source, NULL::VARCHAR AS wiki, NULL::VARCHAR AS title,
    NULL::DATE AS period_start, NULL::VARCHAR AS period, NULL::VARCHAR AS access,
    NULL::VARCHAR AS agent, NULL::BIGINT AS views
WHERE false;
