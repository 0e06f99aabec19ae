-- name: build_classify
-- purpose: A temporary `classify` macro, on this connection only, that answers from a
--          classification build instead of classifying again: sql/updates/updates.sql then
--          reads the valid-time classification it rests on from the build (kg.updates builds
--          it once per window, as `kgdiff classify` does: ~0.9 s against ~11 s at 3 × 5 M
--          statements). It takes the catalog macro's parameters and answers only the
--          build's own dates and mode, for every group; any other call is an error, so it
--          never passes one classification off as another. It shadows the catalog's
--          `classify` (temporary objects come first) until sql/updates/drop_build_classify.sql.
-- params: {{files}} (VARCHAR: the glob of the build's Parquet files); {{init}}, {{cutoff}},
--         {{current}} (VARCHAR: the build's ISO dates); {{mode}} (VARCHAR: its mode);
--         {{max_gap}} (INTEGER: the catalog macro's default).
CREATE OR REPLACE TEMP MACRO classify(
    init, cutoff, current, mode := 'record', part := 'all', lo := '', hi := '', as_of := NULL,
    max_gap := {{max_gap}}, allow_gap := false
) AS TABLE
SELECT b.*
FROM read_parquet({{files}}) AS b
WHERE CASE
    WHEN CAST(init AS DATE) = CAST({{init}} AS DATE)
         AND CAST(cutoff AS DATE) = CAST({{cutoff}} AS DATE)
         AND CAST(current AS DATE) = CAST({{current}} AS DATE)
         AND mode = {{mode}} AND part = 'all' AND as_of IS NULL THEN true
    ELSE error('classify on this connection answers only from the build of '
               || {{init}} || ', ' || {{cutoff}} || ', ' || {{current}} || ' (' || {{mode}}
               || '), for every group')
END;
