-- name: page_cuts
-- purpose: The subjects that cut a classification build's groups into ranges of about equal
--          size, for its pages to be written a range at a time: the distinct values at the
--          shares $shares of the groups in subject order, ascending.
-- params: $shares (DOUBLE[], each in (0, 1)). Reads the temporary view `export_source`.
SELECT list_sort(list_distinct(quantile_disc(subject, CAST($shares AS DOUBLE[]))))
FROM export_source;
