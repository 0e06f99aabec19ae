-- name: copy_snapshots
-- purpose: The snapshots of the lookup copy as a table: the catalog's view reads every
--          manifest each time a question names it, several times per question.
-- params: none.
CREATE TABLE lookup.snapshots AS
SELECT * FROM snapshots
ORDER BY date, name;
