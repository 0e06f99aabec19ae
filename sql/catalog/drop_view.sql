-- name: drop_view
-- purpose: Drop one view of a kept catalog before the rebuild makes its views again.
-- params: {{@view}} the view's name (identifier).
DROP VIEW {{@view}};
