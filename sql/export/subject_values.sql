-- name: subject_values
-- purpose: For the benchmark export's distractors: every item each subject holds under the
--          relations $pids, in any snapshot (statements that are not deprecated): under sex
--          (P21), occupation (P106) and position held (P39), the roles of the people a person
--          is offered (docs/benchmark-export.md#option-kind-agreement; what no distractor may
--          be is sql/export/subject_truths.sql). One row per (subject, pid, value).
-- params: $pids (VARCHAR[]). Reads the view `statements`.
SELECT DISTINCT s.subject, s.pid, s.object_qid AS value
FROM statements AS s
WHERE s.pid IN (SELECT unnest(CAST($pids AS VARCHAR[])))
  AND s.object_qid IS NOT NULL
  AND s.rank <> 'deprecated';
