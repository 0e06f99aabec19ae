-- name: scalar_macro_comment
-- purpose: Mark a catalog scalar macro (the store root's) as kgdiff's, with the fingerprint
--          of the macro set it belongs to, like macro_comment for the table macros.
-- params: {{@macro}} the scalar macro's name (identifier); {{comment}} the mark.
COMMENT ON MACRO {{@macro}} IS {{comment}};
