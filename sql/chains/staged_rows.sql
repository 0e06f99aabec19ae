-- name: staged_rows
-- purpose: The first $n staged chains (temporary table `chain_results`), in the order the
--          search gave them.
-- params: $n (INTEGER, NULL = all).
SELECT * FROM chain_results ORDER BY rowid LIMIT $n;
