-- name: wikipedia_latest
-- purpose: For the benchmark export's wording: the latest Wikipedia snapshot of one wiki, of
--          any date; no row when the store has none.
-- params: $wiki (VARCHAR, e.g. 'enwiki'). Reads the view `wikipedia_snapshots`.
SELECT max_by(name, date) AS name
FROM wikipedia_snapshots
WHERE wiki = $wiki
HAVING count(*) > 0;
