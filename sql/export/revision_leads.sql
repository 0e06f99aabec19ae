-- name: revision_leads
-- purpose: For the benchmark export: the lead of each revision of $revision_ids on one wiki
--          (the supporting revisions of knowledge updates, read from the history snapshots).
-- params: $wiki (VARCHAR); $revision_ids (BIGINT[]). Reads the view `revisions`.
SELECT revision_id, any_value(lead) AS lead
FROM revisions
WHERE wiki = $wiki
  AND revision_id IN (SELECT unnest(CAST($revision_ids AS BIGINT[])))
GROUP BY revision_id
ORDER BY revision_id;
