-- name: finalize_sitelinks
-- purpose: Publish the sitelinks table of a snapshot (site → page title, badges), sorted by qid:
--          the rows of one bucket (a range of qids; see kgdiff/store/buckets.py).
-- params: {{sitelink_parts}} list of sitelink part files; {{out}} path of the Parquet file;
--         {{lo}} / {{hi}} the bucket's qid range, lo inclusive, hi exclusive (NULL: unbounded).
COPY (
    SELECT qid, site, title, coalesce(badges, []) AS badges
    FROM read_parquet({{sitelink_parts}})
    WHERE ({{lo}} IS NULL OR qid >= {{lo}}) AND ({{hi}} IS NULL OR qid < {{hi}})
    ORDER BY qid, site
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 500000);
