-- name: aggregate
-- purpose: Sum the page view rows spooled from one source per (wiki, title, period_start,
--          period, access, agent), sorted for fast lookups by wiki and title.
-- params: {{raw}} the spooled Parquet file.
SELECT
    wiki,
    title,
    period_start,
    period,
    access,
    agent,
    CAST(sum(views) AS BIGINT) AS views
FROM read_parquet({{raw}})
GROUP BY wiki, title, period_start, period, access, agent
ORDER BY wiki, title, period_start, period, access, agent;
