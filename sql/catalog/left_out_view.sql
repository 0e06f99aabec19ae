-- name: left_out_view
-- purpose: Catalog view `kgdiff_left_out(kind, name, path, reason, fix)`: the published
--          folders (snapshots, builds, page view sources, evidence) the catalog leaves out
--          because a view cannot read them, with why and what to do (kgdiff/store/vetting.py);
--          no rows when every folder is shown. `kgdiff serve`'s /health reports them.
-- params: {{kinds}}, {{names}}, {{paths}} (relative to the store root), {{reasons}} and
--         {{fixes}}: lists of equal length, one item per folder left out.
CREATE OR REPLACE VIEW kgdiff_left_out AS
SELECT
    unnest(CAST({{kinds}} AS VARCHAR[])) AS kind,
    unnest(CAST({{names}} AS VARCHAR[])) AS name,
    unnest(CAST({{paths}} AS VARCHAR[])) AS path,
    unnest(CAST({{reasons}} AS VARCHAR[])) AS reason,
    unnest(CAST({{fixes}} AS VARCHAR[])) AS fix;
