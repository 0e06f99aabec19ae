-- name: table_view
-- purpose: Catalog view over one table of every published snapshot; the `snapshot`
--          column comes from the Hive-style folder name snapshot=NAME.
-- params: {{@table}} view name (identifier); {{files}} list of the table's Parquet files
--         (or globs over them), relative to the store root (see store_files_macro).
CREATE OR REPLACE VIEW {{@table}} AS
SELECT snapshot, * EXCLUDE (snapshot)
FROM read_parquet(
    kgdiff_store_files({{files}}),
    hive_partitioning = true,
    hive_types = {'snapshot': VARCHAR},
    hive_types_autocast = false
);
