-- name: build_view
-- purpose: Catalog view over one materialised result (e.g. a classification build).
-- params: {{@view}} view name (identifier); {{file}} the build's Parquet files (a glob),
--         relative to the store root.
CREATE OR REPLACE VIEW {{@view}} AS SELECT * FROM read_parquet(kgdiff_store_files([{{file}}]));
