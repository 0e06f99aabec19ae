-- name: finalize_sitelinks
-- purpose: Publish the sitelinks table of a snapshot (wiki → title, badges), sorted by qid.
-- params: {{entity_parts}} list of entity part files; {{out}} path of the Parquet file to write.
COPY (
    WITH links AS (
        SELECT qid, unnest(map_entries(json_transform(
            sitelinks_json,
            '"MAP(VARCHAR, STRUCT(title VARCHAR, badges VARCHAR[]))"'
        ))) AS entry
        FROM read_parquet({{entity_parts}})
        WHERE sitelinks_json IS NOT NULL
    )
    SELECT
        qid,
        entry.key AS site,
        entry.value.title AS title,
        coalesce(entry.value.badges, []) AS badges
    FROM links
    ORDER BY qid, site
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 500000);
