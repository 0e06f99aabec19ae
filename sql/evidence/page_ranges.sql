-- name: page_ranges
-- purpose: Page-id ranges of the candidate facts, about $per_range facts each (a page is
--          never split), in page order: the build reads one range's pages, facts and names at
--          a time, so what it holds does not grow with the store.
-- params: $per_range (BIGINT); reads the temporary table evidence_candidates(page_id).
WITH per_page AS (
    SELECT page_id, count(*) AS facts FROM evidence_candidates GROUP BY page_id
),
numbered AS (
    SELECT page_id, (sum(facts) OVER (ORDER BY page_id) - facts) // $per_range AS range_no
    FROM per_page
)
SELECT min(page_id) AS lo, max(page_id) AS hi
FROM numbered
GROUP BY range_no
ORDER BY lo;
