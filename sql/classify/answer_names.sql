-- name: answer_names
-- purpose: The labels of every entity id among the chosen groups' subjects, properties and
--          answers, in one language, as of the snapshot read for `current` (kept in a
--          temporary table that the export and the count of unlabelled ids both read).
-- params: $lang (VARCHAR). Reads the temporary view `export_chosen` and the catalog macro
--         `entity_labels`.
CREATE OR REPLACE TEMP TABLE answer_names AS
WITH ids AS (
    SELECT DISTINCT id FROM (
        SELECT subject AS id FROM export_chosen
        UNION ALL SELECT pid FROM export_chosen
        UNION ALL SELECT unnest(all_answers) FROM export_chosen
    )
    WHERE regexp_full_match(id, '[QPL][1-9][0-9]*')
)
SELECT ids.id, n.label
FROM ids
LEFT JOIN entity_labels(
    (SELECT list(id) FROM ids),
    label_snapshot := (SELECT any_value(current_snapshot) FROM export_chosen),
    label_lang := $lang
) AS n ON n.id = ids.id;
