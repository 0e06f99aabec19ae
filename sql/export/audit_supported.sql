-- name: audit_supported
-- purpose: For `kgdiff export audit`: the groups of a classification whose `supported` is
--          known (EvoWiki's evidence filter, sql/evidence/supported.sql), one row per
--          (subject, pid).
-- params: none. Reads the temporary view `export_source`.
SELECT subject, pid, supported
FROM export_source
WHERE supported IS NOT NULL
ORDER BY subject, pid;
