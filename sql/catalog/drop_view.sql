-- name: drop_view
-- purpose: Drop a view of a kept catalog that the rebuild no longer makes.
-- params: {{@view}} the view's name (identifier).
DROP VIEW {{@view}};
