-- name: supported_examples
-- purpose: Demo: groups of a classification that Wikipedia `supported` (EvoWiki's filter),
--          one per subject, with English labels and the sentence that states the latest
--          answer (the golden context of sql/evidence/supported.sql); groups of one answer
--          stated on the subject's own page first.
-- params: none. Reads the temporary view `export_source` (a classification with its
--         evidence columns) and the catalog view `entities`.
WITH ranked AS (
    SELECT *, row_number() OVER (
        PARTITION BY subject ORDER BY evidence.page_role <> 'subject', len(latest), pid
    ) AS n
    FROM export_source
    WHERE supported AND evidence IS NOT NULL
),
labels AS (
    SELECT qid, any_value(label_en ORDER BY snapshot DESC) AS label
    FROM entities
    WHERE label_en IS NOT NULL
    GROUP BY qid
)
SELECT
    r.level,
    coalesce(s.label, r.subject) AS subject,
    coalesce(p.label, r.pid) AS property,
    (SELECT list(coalesce(l.label, x) ORDER BY x) FROM unnest(r.latest) AS t(x)
        LEFT JOIN labels AS l ON l.qid = x) AS latest,
    r.evidence.title AS page,
    r.evidence.sentence AS sentence
FROM ranked AS r
LEFT JOIN labels AS s ON s.qid = r.subject
LEFT JOIN labels AS p ON p.qid = r.pid
WHERE r.n = 1
ORDER BY r.evidence.page_role <> 'subject', len(r.latest), r.evidence.title
LIMIT 6;
