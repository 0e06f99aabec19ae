-- name: evidence_view
-- purpose: Catalog view `evidence`: the mentions found by `kgdiff evidence`, every Wikipedia
--          snapshot side by side (its name in the `snapshot` column).
-- params: {{files}} list of evidence.parquet files, relative to the store root.
CREATE OR REPLACE VIEW evidence AS SELECT * FROM read_parquet(kgdiff_store_files({{files}}));
