-- name: allowed_directories
-- purpose: The only folders a locked-down connection may read once external access is off
--          (kgdiff/query/sql_session.py): the store, so that the catalog's views, and a user's
--          read_parquet of the store's own files, still read; nothing else on the machine. Set
--          after the database has started (DuckDB refuses it in the connection's config).
-- params: $folders (VARCHAR[]) absolute folders, each ending with '/' so that a sibling named
--         like the store with a suffix ('/data/kg2') is not a prefix match of '/data/kg/'.
SET allowed_directories = $folders;
