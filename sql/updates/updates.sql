-- name: updates
-- purpose: AntiLeakBench knowledge updates (DESIGN.md §4), in valid time: in a (subject, pid)
--          group that is evolved/replaced and changed after the cutoff (classify with init =
--          the day before the cutoff), an old object valid at the cutoff whose statement has
--          a known end by `current`, and a new object valid at `current` whose statement has
--          a known start surely after the cutoff (its precision's whole interval after it).
--          Unlike the original: dates compared as precision-aware intervals, deprecated
--          statements excluded, ambiguous groups (a bound unknown at a date) left out.
--          One row per (subject, pid, new object). Needs the `classify` macro.
-- params: $cutoff, $current (DATE, cutoff < current).
WITH
replaced AS (
    SELECT subject, pid, outdated, list_filter(all_answers, lambda v: NOT list_contains(outdated, v)) AS now
    FROM classify(CAST($cutoff AS DATE) - 1, CAST($cutoff AS DATE), CAST($current AS DATE), 'valid')
    WHERE level = 'evolved' AND change_kind = 'replaced' AND changed_after_cutoff
),
latest_snapshot AS (
    SELECT name FROM snapshots
    WHERE date <= CAST($current AS DATE)
    ORDER BY date DESC, name DESC
    LIMIT 1
),
facts AS (
    SELECT st.*
    FROM statements AS st
    SEMI JOIN replaced AS r ON r.subject = st.subject AND r.pid = st.pid
    WHERE st.snapshot = (SELECT name FROM latest_snapshot) AND st.rank <> 'deprecated'
),
ended AS (
    -- old objects: valid at the cutoff, ended (a known end) by current
    SELECT
        f.subject, f.pid,
        list(DISTINCT f.value ORDER BY f.value) AS old_objects,
        list(DISTINCT f.statement_id ORDER BY f.statement_id) AS old_statement_ids,
        max(f.end_hi) AS old_end_hi
    FROM facts AS f
    JOIN replaced AS r ON r.subject = f.subject AND r.pid = f.pid
    WHERE list_contains(r.outdated, f.value)
      AND f.end_snaktype = 'value'
      AND f.end_lo > CAST($cutoff AS DATE)
      AND f.end_hi <= CAST($current AS DATE)
    GROUP BY f.subject, f.pid
),
started AS (
    -- new objects: valid at current, started surely after the cutoff
    SELECT
        f.subject, f.pid, f.value AS new_object,
        min(f.statement_id) AS new_statement_id,
        min(f.start_lo) AS new_start_lo,
        min(f.start_hi) AS new_start_hi
    FROM facts AS f
    JOIN replaced AS r ON r.subject = f.subject AND r.pid = f.pid
    WHERE list_contains(r.now, f.value)
      AND f.start_snaktype = 'value'
      AND f.start_lo > CAST($cutoff AS DATE)
      AND f.start_hi <= CAST($current AS DATE)
      AND (f.end_snaktype IS NULL OR f.end_snaktype = 'novalue'
           OR (f.end_snaktype = 'value' AND f.end_lo > CAST($current AS DATE)))
    GROUP BY f.subject, f.pid, f.value
)
SELECT
    s.subject, s.pid, s.new_object, e.old_objects,
    s.new_statement_id, s.new_start_lo, s.new_start_hi,
    e.old_statement_ids, e.old_end_hi,
    (SELECT name FROM latest_snapshot) AS snapshot
FROM started AS s
JOIN ended AS e USING (subject, pid)
ORDER BY s.subject, s.pid, s.new_object;
