-- name: supported_counts
-- purpose: Groups per level, `supported` value (true, false, NULL = cannot tell) and
--          `supported_reason` (why it cannot tell; NULL when it can); with $substantive an
--          evolved group whose change is not substantive counts as stable (as
--          sql/classify/export_chosen.sql reports it, its evidence columns unchanged).
-- params: $pids list of properties (empty = all); $levels list of levels (empty = all);
--         $subjects list of subjects (empty = all); $substantive (BOOLEAN).
--         Reads the temporary view `export_source`.
SELECT level, supported, supported_reason, count(*) AS groups
FROM (
    SELECT
        * REPLACE (
            CASE WHEN $substantive AND level = 'evolved' AND change_nature <> 'substantive'
                 THEN 'stable' ELSE level END AS level
        )
    FROM export_source
)
WHERE (len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid))
  AND (len(CAST($levels AS VARCHAR[])) = 0 OR list_contains(CAST($levels AS VARCHAR[]), level))
  AND (len(CAST($subjects AS VARCHAR[])) = 0
       OR list_contains(CAST($subjects AS VARCHAR[]), subject))
GROUP BY ALL
ORDER BY level, supported, groups DESC, supported_reason;
