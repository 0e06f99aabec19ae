-- name: snapshot_range
-- purpose: The rows of one table of one snapshot, read whole through the catalog's view (a
--          delta's own rows and those it takes from its bases), for a range of subjects: what
--          `kgdiff snapshots compact` writes, range by range (kgdiff/store/compact.py sorts
--          them as an ingest does).
-- params: {{@table}} the catalog view; {{@key}} its subject column; $name (VARCHAR) the
--         snapshot; $lo, $hi (VARCHAR) the range [lo, hi).
SELECT * EXCLUDE (snapshot)
FROM {{@table}}
WHERE snapshot = $name AND {{@key}} >= $lo AND {{@key}} < $hi
