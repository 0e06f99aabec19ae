-- name: memory_limit
-- purpose: DuckDB's memory limit on this connection's database, as DuckDB writes it (e.g.
--          '1.5 GiB', which `SET memory_limit` takes back): the budget a classification
--          made for a question on this graph keeps to (kgdiff/query/answers.py).
-- params: none.
SELECT current_setting('memory_limit');
