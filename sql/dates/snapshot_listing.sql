-- name: snapshot_listing
-- purpose: Every Wikidata snapshot's name and date, oldest first (for messages that list
--          what the store can answer).
-- params: none (reads the view `snapshots(name, date)`).
SELECT name, date FROM snapshots ORDER BY date, name;
