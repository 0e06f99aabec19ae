-- name: class_members
-- purpose: For the benchmark export's distractors: up to $per_class items of each class of
--          $classes (the classes of answers that too few other answers share), as the
--          snapshots up to $snapshot record them: subjects of a non-deprecated instance-of
--          (P31) or subclass-of (P279) statement whose value is the class, the first by id.
--          An item of a class is a distractor of that class's kind even when no classified
--          group names it ("What came just before November?": September, December).
-- params: $classes (VARCHAR[]); $per_class (BIGINT); $snapshot (VARCHAR, NULL = every
--         snapshot). Reads the views `statements` and `snapshots`.
WITH
upto AS (
    SELECT name
    FROM snapshots
    WHERE $snapshot IS NULL
       OR date <= (SELECT date FROM snapshots WHERE name = $snapshot)
),
members AS (
    SELECT DISTINCT s.object_qid AS class, s.subject
    FROM statements AS s
    WHERE s.pid IN ('P31', 'P279')
      AND s.rank <> 'deprecated'
      AND s.snapshot IN (SELECT name FROM upto)
      AND s.object_qid IN (SELECT unnest(CAST($classes AS VARCHAR[])))
)
SELECT class, subject
FROM members
QUALIFY row_number() OVER (PARTITION BY class ORDER BY length(subject), subject) <= $per_class
ORDER BY class, length(subject), subject;
