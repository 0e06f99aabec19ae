-- name: classify_build
-- purpose: Materialise one part of a classification as Parquet (see sql/classify/classify.sql;
--          kgdiff/temporal/parts.py runs every part and joins them).
-- params: $init, $cutoff, $current (DATE), $mode ('record' | 'valid' | 'both');
--         $part ('all' | 'range' | 'merged'), $lo, $hi (VARCHAR); {{out}} Parquet path.
COPY (
    SELECT * FROM classify(
        CAST($init AS DATE), CAST($cutoff AS DATE), CAST($current AS DATE), $mode,
        part := $part, lo := $lo, hi := $hi,
        allow_gap := true  -- the library checked the dates against the store first
    )
) TO {{out}} (FORMAT parquet, COMPRESSION zstd);
