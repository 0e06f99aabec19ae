-- name: set_store_root
-- purpose: Tell the catalog's views which store's files to read (the variable that
--          `kgdiff_store_root()` takes first), so a connection never depends on how DuckDB
--          was opened or on its temp_directory.
-- params: $root the store folder, ending with '/'.
SET VARIABLE kgdiff_store = $root;
