-- name: subject_truths
-- purpose: For the benchmark export's distractors (docs/benchmark-export.md#option-kind-agreement):
--          every item each subject holds, in any snapshot (statements that are not
--          deprecated), under the relations $pids, each with the kind of relation it is of
--          ($kins, paired with $pids: the class the catalogue expects of its objects, or the
--          relation itself): what no distractor of a record about the subject may be
--          (Chile's head of state of one snapshot offered as a wrong head of state of another
--          year; its head of government). One row per (subject, kin, value), sorted by them,
--          written to {{out}} in row groups of about 50,000 rows, so that the truths of a
--          range of subjects are read from the row groups that hold them.
-- params: $pids, $kins (VARCHAR[], as long as each other); {{out}} Parquet path. Reads the
--         view `statements`.
COPY (
    WITH kins AS (
        SELECT unnest(CAST($pids AS VARCHAR[])) AS pid, unnest(CAST($kins AS VARCHAR[])) AS kin
    )
    SELECT DISTINCT s.subject, k.kin, s.object_qid AS value
    FROM statements AS s
    JOIN kins AS k ON k.pid = s.pid
    WHERE s.object_qid IS NOT NULL
      AND s.rank <> 'deprecated'
    ORDER BY s.subject, k.kin, value
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 50000);
