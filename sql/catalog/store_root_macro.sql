-- name: store_root_macro
-- purpose: Catalog macro `kgdiff_store_root()`: the folder of the store whose files the
--          catalog's views read, as a prefix of their relative paths ('/data/kg/', or ''
--          when DuckDB was opened from inside the store). DuckDB binds a view again at every
--          query, so a store copied or moved elsewhere reads its own files at once. The
--          variable `kgdiff_store` wins when set (kgdiff's connections set it; set it
--          yourself when you ATTACH the catalog); else the folder of the database DuckDB
--          opened, which its default temp_directory tells: that path with '.tmp' appended,
--          or put before its first '?' when it has one. Any other temp_directory, or a
--          relative one under a file_search_path (relative globs then search those folders,
--          not the current one), is an error rather than a guess, so a view never reads the
--          files of another store.
-- params: none (reads the variable `kgdiff_store` and the settings temp_directory and
--         file_search_path).
CREATE OR REPLACE MACRO kgdiff_store_root() AS coalesce(
    CASE
        WHEN getvariable('kgdiff_store') = '' OR suffix(getvariable('kgdiff_store'), '/')
            THEN getvariable('kgdiff_store')
        ELSE getvariable('kgdiff_store') || '/'
    END,
    CASE
        WHEN NOT regexp_matches(
            regexp_replace(current_setting('temp_directory'), '\.tmp(\?|$)', '\1'),
            '(^|/)kg\.duckdb$'
        )
            THEN error(
                'kgdiff: cannot tell which store this catalog belongs to (DuckDB did not open '
                || 'STORE/kg.duckdb itself, or temp_directory was set); run SET VARIABLE '
                || 'kgdiff_store = ''/path/to/store/'' first'
            )
        WHEN NOT starts_with(current_setting('temp_directory'), '/')
             AND current_setting('file_search_path') <> ''
            THEN error(
                'kgdiff: the catalog was opened by a relative path and file_search_path is '
                || 'set; run SET VARIABLE kgdiff_store = ''/path/to/store/'' first'
            )
        ELSE regexp_replace(
            regexp_replace(current_setting('temp_directory'), '\.tmp(\?|$)', '\1'),
            'kg\.duckdb$',
            ''
        )
    END
);
