-- name: export_source
-- purpose: The view `export_source` over one classification build, for an export without
--          evidence columns, in a connection of its own (not the catalog).
-- params: {{files}} the build's Parquet files (an absolute glob).
CREATE OR REPLACE TEMP VIEW export_source AS SELECT * FROM read_parquet({{files}});
