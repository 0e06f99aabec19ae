-- name: export_chosen
-- purpose: The groups of a classification a user asked for: the build's rows (with their
--          evidence columns when the store has evidence) for some properties and levels.
-- params: $pids (VARCHAR[], empty = every property); $levels (VARCHAR[], empty = every
--         level); $subjects (VARCHAR[], empty = every subject). Reads the temporary view
--         `export_source`.
SELECT *
FROM export_source
WHERE (len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid))
  AND (len(CAST($levels AS VARCHAR[])) = 0 OR list_contains(CAST($levels AS VARCHAR[]), level))
  AND (len(CAST($subjects AS VARCHAR[])) = 0
       OR list_contains(CAST($subjects AS VARCHAR[]), subject));
