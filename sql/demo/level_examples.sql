-- name: level_examples
-- purpose: Demo: two groups of each level of a classification build (small answer sets
--          first), with English labels for subjects, properties and answers.
-- params: {{build}} the build's Parquet file.
WITH ranked AS (
    SELECT *, row_number() OVER (
        PARTITION BY level ORDER BY len(all_answers) NOT BETWEEN 1 AND 3, subject, pid
    ) AS n
    FROM read_parquet({{build}})
    WHERE level <> 'ambiguous' OR ambiguous_reason IS NOT NULL
),
labels AS (
    SELECT qid, any_value(label_en) AS label
    FROM entities
    WHERE label_en IS NOT NULL
    GROUP BY qid
)
SELECT
    r.level,
    coalesce(s.label, r.subject) AS subject,
    coalesce(p.label, r.pid) AS property,
    r.change_kind,
    (SELECT list(coalesce(l.label, x) ORDER BY x) FROM unnest(r.latest) AS t(x)
        LEFT JOIN labels AS l ON l.qid = x) AS latest,
    (SELECT list(coalesce(l.label, x) ORDER BY x) FROM unnest(r.outdated) AS t(x)
        LEFT JOIN labels AS l ON l.qid = x) AS outdated,
    r.ambiguous_reason
FROM ranked AS r
LEFT JOIN labels AS s ON s.qid = r.subject
LEFT JOIN labels AS p ON p.qid = r.pid
WHERE r.n <= 2
ORDER BY
    list_position(['stable', 'evolved', 'uncharted', 'recent', 'retracted', 'ambiguous'], r.level),
    r.n;
