-- name: lock_configuration
-- purpose: Freeze every setting of a locked-down connection (memory, threads, temp_directory,
--          allowed_directories, the time limit), so that no statement that reaches DuckDB can
--          loosen them. The last statement kgdiff runs before the user's query.
-- params: none.
SET lock_configuration = true;
