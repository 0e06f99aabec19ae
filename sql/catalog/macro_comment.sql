-- name: macro_comment
-- purpose: Mark a catalog macro as kgdiff's, with the fingerprint of the macro set it
--          belongs to, so the next rebuild can keep it instead of binding it again.
-- params: {{@macro}} the table macro's name (identifier); {{comment}} the mark.
COMMENT ON MACRO TABLE {{@macro}} IS {{comment}};
