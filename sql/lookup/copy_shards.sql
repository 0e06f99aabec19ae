-- name: copy_shards
-- purpose: The lookup copy's subject ranges, each with the schema that holds its rows
--          (sql/lookup/shard_view.sql): a question about one entity reads the schema whose
--          [lo, hi) holds its id (kgdiff/query/lookup.py, `ShardMap`); a facts copy keeps the
--          ranges of its lookup copy.
-- params: $names, $los, $his (VARCHAR[]) the schemas and their ranges, in order; {{@copy}}
--         the database written (identifier: lookup or facts).
CREATE TABLE {{@copy}}.main.shards AS
SELECT unnest(CAST($names AS VARCHAR[])) AS name,
       unnest(CAST($los AS VARCHAR[])) AS lo,
       unnest(CAST($his AS VARCHAR[])) AS hi;
