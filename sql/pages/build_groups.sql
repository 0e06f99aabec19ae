-- name: build_groups
-- purpose: How many groups a classification build holds.
-- params: none. Reads the temporary view `export_source`.
SELECT count(*) FROM export_source;
