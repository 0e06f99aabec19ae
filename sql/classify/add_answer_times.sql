-- name: add_answer_times
-- purpose: Label the time values among a classification's answers with their words: the
--          rows (value key, words) of the registered relation `kgdiff_answer_times` join the
--          temporary table `answer_names` (sql/classify/answer_names.sql).
-- params: none. Reads the relation `kgdiff_answer_times(id, label)`.
INSERT INTO answer_names SELECT id, label FROM kgdiff_answer_times;
