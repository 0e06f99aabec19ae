-- name: copy_rows
-- purpose: Write the rows of the temporary view `kgdiff_out_rows` (an answer about to be
--          published) to a JSON lines or Parquet file; COPY answers how many rows it wrote.
-- params: {{out}} the (temporary) output path; {{@format}} json or parquet;
--         {{@compression}} the Parquet codec (zstd), ignored by JSON as 'auto'.
COPY (SELECT * FROM kgdiff_out_rows) TO {{out}} (FORMAT {{@format}}, COMPRESSION {{@compression}});
