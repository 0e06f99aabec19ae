-- name: page_index
-- purpose: The index of a build's pages: per file, its rows, its first key (subject, pid)
--          and its groups per level, in key order (the files do not overlap).
-- params: $files (VARCHAR[], the page files).
SELECT
    parse_filename(filename) AS file,
    count(*) AS rows,
    min([subject, pid]) AS first_key,
    max([subject, pid]) AS last_key,
    map_keys(histogram(level)) AS levels,
    map_values(histogram(level)) AS level_rows
FROM read_parquet(CAST($files AS VARCHAR[]), filename = true)
GROUP BY filename
ORDER BY first_key;
