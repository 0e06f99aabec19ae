-- name: serialize
-- purpose: The parse tree of a user's query as JSON (DuckDB's own parser), which
--          kgdiff/query/sql_guard.py walks for the functions the query calls. The query is a
--          bind parameter: it is parsed, never run, here. DuckDB answers non-SELECT statements
--          with {"error": true, ...} rather than failing.
-- params: $query (VARCHAR) the user's statement.
SELECT json_serialize_sql($query) AS tree;
