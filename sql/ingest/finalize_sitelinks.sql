-- name: finalize_sitelinks
-- purpose: Publish the sitelinks table of a snapshot (site → page title, badges), sorted by qid.
-- params: {{sitelink_parts}} list of sitelink part files; {{out}} path of the Parquet file.
COPY (
    SELECT qid, site, title, coalesce(badges, []) AS badges
    FROM read_parquet({{sitelink_parts}})
    ORDER BY qid, site
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 500000);
