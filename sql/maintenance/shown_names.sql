-- name: shown_names
-- purpose: The names a catalog view of published folders lists (`snapshots`,
--          `wikipedia_snapshots`), for kgdiff store check to compare with the folders.
-- params: {{@view}} the view (identifier).
SELECT name FROM {{@view}};
