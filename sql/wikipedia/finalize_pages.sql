-- name: finalize_pages
-- purpose: Publish the pages table of a Wikipedia snapshot (the revision in force at its date,
--          one row per page), sorted by wiki and title so lookups by sitelink read few row groups.
-- params: {{parts}} the unsorted page file(s); {{out}} path of the Parquet file.
COPY (
    SELECT * FROM read_parquet({{parts}})
    ORDER BY wiki, title
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000);
