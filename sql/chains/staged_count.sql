-- name: staged_count
-- purpose: How many chains the temporary table `chain_results` holds (kgdiff/temporal/chains.py
--          stages a search there to print some and write them all).
-- params: none.
SELECT count(*) FROM chain_results;
