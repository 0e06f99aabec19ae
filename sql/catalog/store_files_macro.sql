-- name: store_files_macro
-- purpose: Catalog macro `kgdiff_store_files(paths)`: the store's files for read_parquet or
--          read_json, from their paths relative to the store root (globs allowed), prefixed
--          with `kgdiff_store_root()`. The root's glob characters are escaped as one-character
--          classes (`[` -> `[[]`) so a store under any folder name is read literally; a
--          backslash, which DuckDB's globs take for a path separator, is an error.
-- params: none; `paths` (VARCHAR[]) is the macro's parameter.
CREATE OR REPLACE MACRO kgdiff_store_files(paths) AS
CASE
    WHEN contains(kgdiff_store_root(), '\')
        THEN error(
            'kgdiff: the store path ' || kgdiff_store_root() || ' holds a backslash, which '
            || 'DuckDB cannot read files under; move the store'
        )
    ELSE list_transform(
        paths,
        lambda relative: regexp_replace(kgdiff_store_root(), '([*?\[{}])', '[\1]', 'g') || relative
    )
END;
