-- name: finalize_revisions
-- purpose: Publish the revisions table of a Wikipedia snapshot (every revision the dump holds),
--          sorted by page and time.
-- params: {{parts}} the unsorted revision file(s); {{out}} path of the Parquet file.
COPY (
    SELECT * FROM read_parquet({{parts}})
    ORDER BY wiki, page_id, timestamp, revision_id
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 200000);
