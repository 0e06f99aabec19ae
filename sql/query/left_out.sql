-- name: left_out
-- purpose: The published folders the catalog leaves out (what, which, where, why, what to
--          do), for /health (run `views_present` first: a catalog made by an older kgdiff
--          has no `kgdiff_left_out`).
-- params: none (reads the view `kgdiff_left_out`).
SELECT kind, name, path, reason, fix
FROM kgdiff_left_out
ORDER BY kind, name;
