-- name: answer_times
-- purpose: The distinct time value keys among the chosen groups' answers, for their words
--          (kgdiff/timetext.py renders them; kgdiff/query/classified.py adds them to the
--          temporary table `answer_names`, so a time is labelled as a person reads it).
-- params: none. Reads the temporary view `export_chosen`.
SELECT DISTINCT value
FROM (SELECT unnest(all_answers) AS value FROM export_chosen)
WHERE regexp_full_match(value, '[+-][0-9]+-[0-9]{2}-[0-9]{2}T[^|]*\|[0-9]{1,2}\|.+');
