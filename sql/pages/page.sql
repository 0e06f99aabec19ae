-- name: page
-- purpose: One page of a build's groups: the chosen groups after a key (subject, pid), in
--          key order, at most $n of them. `subject >= $after_subject` lets the reader skip
--          the row groups before the key by their statistics.
-- params: $files (VARCHAR[], page files in key order); $after_subject, $after_pid (VARCHAR,
--         '' for the first page); $levels, $pids, $subjects (VARCHAR[], empty = all);
--         $n (BIGINT).
SELECT
    subject, subject_label, pid, pid_label, level, change_kind, changed_after_cutoff,
    latest, latest_labels, outdated, outdated_labels, all_answers, all_answers_labels,
    ambiguous_reason, not_covered_in, record_level, valid_level, backfilled
FROM read_parquet(CAST($files AS VARCHAR[]))
WHERE subject >= $after_subject
  AND (subject > $after_subject OR pid > $after_pid)
  AND (len(CAST($levels AS VARCHAR[])) = 0 OR list_contains(CAST($levels AS VARCHAR[]), level))
  AND (len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid))
  AND (len(CAST($subjects AS VARCHAR[])) = 0
       OR list_contains(CAST($subjects AS VARCHAR[]), subject))
ORDER BY subject, pid
LIMIT $n;
