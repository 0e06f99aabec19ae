-- name: bucket_bounds
-- purpose: Cut points that split a snapshot's entity ids into ranges of equal counts (the
--          finalize buckets; see kgdiff/store/buckets.py). NULL when there are no entities.
-- params: {{entity_parts}} list of entity part files; {{fractions}} list of the quantiles
--         wanted, ascending, in (0, 1).
SELECT quantile_disc(qid, {{fractions}}) AS bounds
FROM read_parquet({{entity_parts}});
