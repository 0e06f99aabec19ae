-- name: export_chosen
-- purpose: The groups of a classification a user asked for: the build's rows (with their
--          evidence columns when the store has evidence) for some properties and levels.
--          With $substantive, an evolved group whose change is not substantive (reformatted or
--          refined, docs/classification.md#substantive-changes-only) is a stable one: level
--          `stable`, no change kind, changed_after_cutoff or outdated values, its
--          change_nature kept (the evidence columns stay those of the build's level).
-- params: $pids (VARCHAR[], empty = every property); $levels (VARCHAR[], empty = every
--         level, after $substantive); $subjects (VARCHAR[], empty = every subject);
--         $substantive (BOOLEAN). Reads the temporary view `export_source`.
SELECT *
FROM (
    SELECT * EXCLUDE (moved) REPLACE (
        CASE WHEN moved THEN 'stable' ELSE level END AS level,
        CASE WHEN moved THEN NULL ELSE change_kind END AS change_kind,
        CASE WHEN moved THEN NULL ELSE changed_after_cutoff END AS changed_after_cutoff,
        CASE WHEN moved THEN CAST([] AS VARCHAR[]) ELSE outdated END AS outdated
    )
    FROM (
        SELECT *, coalesce($substantive AND level = 'evolved'
                          AND change_nature <> 'substantive', false) AS moved
        FROM export_source
    )
)
WHERE (len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid))
  AND (len(CAST($levels AS VARCHAR[])) = 0 OR list_contains(CAST($levels AS VARCHAR[]), level))
  AND (len(CAST($subjects AS VARCHAR[])) = 0
       OR list_contains(CAST($subjects AS VARCHAR[]), subject));
