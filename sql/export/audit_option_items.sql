-- name: audit_option_items
-- purpose: For `kgdiff export audit`: the items whose label in a language is the text of a
--          distractor (the registered table `audit_texts(text)`), in any snapshot of the
--          store; one row per (text, item).
-- params: $lang the labels' language. Reads the view `labels` and the registered table
--         `audit_texts`.
SELECT DISTINCT t.text, l.qid AS item
FROM audit_texts AS t
JOIN labels AS l ON l.value = t.text
WHERE l.lang = $lang AND l.kind = 'label' AND l.qid LIKE 'Q%'
ORDER BY t.text, item;
