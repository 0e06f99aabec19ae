-- name: disable_external_access
-- purpose: Turn off every access outside allowed_directories: other files, the network,
--          installing and loading extensions, COPY, ATTACH. DuckDB cannot turn it back on
--          while the database runs.
-- params: none.
SET enable_external_access = false;
