-- name: redirect_named
-- purpose: The asked ids that some snapshot's redirect names (as the merged item or as its
--          target): only their groups can be gathered by a merge (sql/classify/classify.sql,
--          merged_subjects, follows at most two redirects, each a row here).
-- params: $ids (VARCHAR[]).
SELECT DISTINCT id
FROM (
    SELECT qid AS id FROM entities
    WHERE redirect_to IS NOT NULL AND list_contains(CAST($ids AS VARCHAR[]), qid)
    UNION ALL
    SELECT redirect_to AS id FROM entities
    WHERE list_contains(CAST($ids AS VARCHAR[]), redirect_to)
);
