-- name: export_rows
-- purpose: The chosen groups of a classification as exported, sorted by subject and
--          property, with labels: `subject_label`, `pid_label`, and `latest_labels`,
--          `outdated_labels`, `all_answers_labels` in the order of their value lists (an id
--          without a label, and any value that is no entity, stands for itself).
-- params: none. Reads the temporary view `export_chosen` and table `answer_names`.
WITH answer_labels AS (
    SELECT a.subject, a.pid, list(coalesce(n.label, a.value) ORDER BY a.i) AS labels
    FROM (
        SELECT subject, pid, unnest(all_answers) AS value,
               generate_subscripts(all_answers, 1) AS i
        FROM export_chosen
    ) AS a
    LEFT JOIN answer_names AS n ON n.id = a.value
    GROUP BY a.subject, a.pid
)
SELECT
    c.*,
    coalesce(ns.label, c.subject) AS subject_label,
    coalesce(np.label, c.pid) AS pid_label,
    list_transform(c.latest, lambda x: al.labels[list_position(c.all_answers, x)]) AS latest_labels,
    list_transform(c.outdated, lambda x: al.labels[list_position(c.all_answers, x)])
        AS outdated_labels,
    coalesce(al.labels, []) AS all_answers_labels
FROM export_chosen AS c
LEFT JOIN answer_labels AS al ON al.subject = c.subject AND al.pid = c.pid
LEFT JOIN answer_names AS ns ON ns.id = c.subject
LEFT JOIN answer_names AS np ON np.id = c.pid
ORDER BY c.subject, c.pid;
