-- name: pageviews_view
-- purpose: Catalog view `pageviews(source, wiki, title, period_start, period, access, agent,
--          views)` over every published page view source; `source` comes from the
--          Hive-style folder name source=NAME.
-- params: {{files}} list of the sources' pageviews.parquet files, relative to the store root.
CREATE OR REPLACE VIEW pageviews AS
SELECT source, * EXCLUDE (source)
FROM read_parquet(
    kgdiff_store_files({{files}}),
    hive_partitioning = true,
    hive_types = {'source': VARCHAR},
    hive_types_autocast = false
);
