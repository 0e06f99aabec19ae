-- name: view_comment
-- purpose: Mark a catalog view with the fingerprint of the statement that made it and of the
--          store's files it names, so the next rebuild can keep it instead of binding it again
--          (kgdiff/store/view_reuse.py).
-- params: {{@view}} the view's name (identifier); {{comment}} the mark.
COMMENT ON VIEW {{@view}} IS {{comment}};
