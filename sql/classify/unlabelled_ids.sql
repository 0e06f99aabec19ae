-- name: unlabelled_ids
-- purpose: How many entity ids of an export have no label in the language asked (they are
--          shown as themselves), and a few of them.
-- params: none. Reads the temporary table `answer_names`.
SELECT count(*) AS unlabelled, list(id ORDER BY id)[1:5] AS examples
FROM answer_names
WHERE label IS NULL;
