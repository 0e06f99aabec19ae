-- name: classify_build
-- purpose: Materialise one classification as a Parquet build (see sql/classify/classify.sql).
-- params: $init, $cutoff, $current (DATE), $mode ('record' | 'valid'); {{out}} Parquet path.
COPY (
    SELECT * FROM classify(CAST($init AS DATE), CAST($cutoff AS DATE), CAST($current AS DATE), $mode)
) TO {{out}} (FORMAT parquet, COMPRESSION zstd);
