-- name: evidence_examples
-- purpose: Demo: facts with a trusted mention in the lead of their subject's article, one per
--          subject, with English labels, the page, its revision and the mentioning sentence.
-- params: none (reads the catalog views `evidence` and `entities`).
WITH ranked AS (
    SELECT *, row_number() OVER (PARTITION BY subject ORDER BY sentence_index, pid) AS n
    FROM evidence
    WHERE page_role = 'subject' AND NOT weak AND section = 'lead' AND pid <> 'P31'
),
labels AS (
    SELECT qid, any_value(label_en ORDER BY snapshot DESC) AS label
    FROM entities GROUP BY qid
)
SELECT r.subject, s.label AS subject_label, r.pid, p.label AS property_label, r.object_qid,
       o.label AS object_label, r.title, r.revision_id, r.sentence
FROM ranked AS r
LEFT JOIN labels AS s ON s.qid = r.subject
LEFT JOIN labels AS p ON p.qid = r.pid
LEFT JOIN labels AS o ON o.qid = r.object_qid
WHERE r.n = 1
ORDER BY r.title
LIMIT 8;
