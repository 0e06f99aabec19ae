-- name: part_bounds
-- purpose: Candidate subject bounds for classifying in parts: the smallest subject of each row
--          group of a snapshot's statements files (sorted by subject across the files in
--          order, so row groups are ranges).
-- params: $files the statements Parquet files of a snapshot, in order.
SELECT stats_min_value AS subject
FROM parquet_metadata($files)
WHERE path_in_schema = 'subject'
ORDER BY list_position($files, file_name), row_group_id;
