-- name: wikipedia_at
-- purpose: For the benchmark export: the Wikipedia snapshot of one wiki dated at or before a
--          day (the latest such), whose evidence may give a context to a fact valid that day;
--          no row when there is none.
-- params: $wiki (VARCHAR, e.g. 'enwiki'); $day (DATE). Reads the view `wikipedia_snapshots`.
SELECT max_by(name, date) AS name
FROM wikipedia_snapshots
WHERE wiki = $wiki AND date <= $day
HAVING count(*) > 0;
