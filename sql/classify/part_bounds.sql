-- name: part_bounds
-- purpose: Candidate subject bounds for classifying in parts: the smallest subject of each row
--          group of a snapshot's statements file (sorted by subject, so row groups are ranges).
-- params: $file the statements.parquet of a snapshot.
SELECT stats_min_value AS subject
FROM parquet_metadata($file)
WHERE path_in_schema = 'subject'
ORDER BY row_group_id;
