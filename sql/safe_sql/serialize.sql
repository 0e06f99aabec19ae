-- name: serialize
-- purpose: The parse trees of SELECT statements as JSON (DuckDB's own parser), which
--          kgdiff/query/sql_reach.py walks for the functions they call: a user's query, and
--          the definitions of the macros and views it reaches, a level of them at a time. The
--          statements are a bind parameter: they are parsed, never run, here. DuckDB answers
--          a statement it cannot serialize (not a SELECT) with {"error": true, ...}.
-- params: $texts (VARCHAR[]) the statements; the trees come back in their order.
SELECT list_transform($texts::VARCHAR[], lambda text: json_serialize_sql(text)) AS trees;
