-- name: build_view
-- purpose: Catalog view over one materialised result (e.g. a classification build).
-- params: {{@view}} view name (identifier); {{file}} the build's Parquet file.
CREATE OR REPLACE VIEW {{@view}} AS SELECT * FROM read_parquet({{file}});
