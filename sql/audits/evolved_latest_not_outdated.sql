-- name: evolved_latest_not_outdated
-- purpose: Audit: an evolved group's latest answers never equal (or overlap) its outdated ones,
--          and it has at least one outdated answer or a change after the init date.
-- params: {{build}} a classification build's Parquet file.
SELECT subject, pid, latest, outdated, change_kind
FROM read_parquet({{build}})
WHERE level = 'evolved'
  AND (latest = outdated OR len(list_intersect(latest, outdated)) > 0 OR change_kind IS NULL);
