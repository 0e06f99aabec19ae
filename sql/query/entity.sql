-- name: entity
-- purpose: One entity as a snapshot holds it, with its label, description and aliases in a
--          language (English columns when the language is 'en' and the labels table has
--          none), its types (P31) and counts. No row when the snapshot does not hold it.
-- params: $qid (VARCHAR); $snapshot (VARCHAR); $lang (VARCHAR).
WITH names AS (
    SELECT
        arg_min(value, ordinal) FILTER (WHERE kind = 'label') AS label,
        arg_min(value, ordinal) FILTER (WHERE kind = 'description') AS description,
        list(value ORDER BY ordinal) FILTER (WHERE kind = 'alias') AS aliases
    FROM labels
    WHERE snapshot = $snapshot AND qid = $qid AND lang = $lang
)
SELECT
    e.qid,
    e.snapshot,
    e.type,
    coalesce(n.label, CASE WHEN $lang = 'en' THEN e.label_en END) AS label,
    coalesce(n.description, CASE WHEN $lang = 'en' THEN e.description_en END) AS description,
    coalesce(n.aliases, CASE WHEN $lang = 'en' THEN e.aliases_en END, []) AS aliases,
    coalesce(e.p31, []) AS types,
    e.redirect_to,
    e.n_labels,
    e.n_sitelinks,
    e.n_statements,
    e.lastrevid,
    e.modified
FROM entities AS e
CROSS JOIN names AS n
WHERE e.snapshot = $snapshot AND e.qid = $qid;
