-- name: popularity
-- purpose: Popularity per (wiki, title) (docs/questions.md, EvoWiki): views summed per calendar
--          month over every source and access method (hourly, daily and monthly rows
--          alike), spiders and automated agents left out; the median over the months that
--          have views, and popularity = ln(median + 1).
-- params: {{files}} the pageviews Parquet files (a list or a glob); $wiki a database name
--         or NULL for every wiki; $titles a list of titles (spaces, not underscores) or
--         NULL for every title.
WITH
kept AS (
    SELECT wiki, title, CAST(date_trunc('month', period_start) AS DATE) AS month, views
    FROM read_parquet({{files}})
    WHERE period IN ('hour', 'day', 'month')
      AND agent NOT IN ('spider', 'automated')
      AND (CAST($wiki AS VARCHAR) IS NULL OR wiki = $wiki)
      AND (CAST($titles AS VARCHAR[]) IS NULL OR list_contains(CAST($titles AS VARCHAR[]), title))
),
monthly AS (
    SELECT wiki, title, month, CAST(sum(views) AS BIGINT) AS views
    FROM kept
    GROUP BY wiki, title, month
)
SELECT
    wiki,
    title,
    list({'month': month, 'views': views} ORDER BY month) AS monthly_views,
    CAST(median(CAST(views AS DOUBLE)) AS DOUBLE) AS median_monthly_views,
    ln(median(CAST(views AS DOUBLE)) + 1) AS popularity,
    count(*) AS months
FROM monthly
GROUP BY wiki, title
ORDER BY popularity DESC, wiki, title;
