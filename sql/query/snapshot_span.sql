-- name: snapshot_span
-- purpose: The first and the latest Wikidata snapshot's dates (NULLs when there is none): the
--          default `init` and `current` of a classification.
-- params: none (reads the view `snapshots`).
SELECT min(date) AS first_date, max(date) AS latest_date FROM snapshots;
