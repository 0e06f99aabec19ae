-- name: updates
-- purpose: AntiLeakBench knowledge updates (docs/questions.md), in valid time: in a (subject, pid)
--          group that is evolved/replaced and changed after the cutoff (classify with init =
--          the day before the cutoff), an old object valid at the cutoff whose statement has
--          a known end by `current`, and a new object valid at `current` whose statement has
--          a known start surely after the cutoff (its precision's whole interval after it).
--          Unlike the original: dates compared as precision-aware intervals, deprecated
--          statements excluded, ambiguous groups (a bound unknown at a date) left out.
--          One row per (subject, pid, new object), with the group's `change_nature`
--          (substantive, or only reformatted or refined: docs/classification.md), the
--          snapshot that answered (the latest at or before `current`) and `gap_days`
--          (`current` minus its date), and the
--          labels in $lang of the subject, the property and the objects as of that snapshot
--          (an id without a label stands for itself: sql/labels/entity_labels.sql).
--          A `current` more than $max_gap days after the latest snapshot, or before the first,
--          is an error naming the snapshots unless $allow_gap (sql/dates/date_reads.sql).
--          Needs the `classify` and `entity_labels` macros. A large store is answered part
--          by part as it is classified ($part, $lo, $hi: kgdiff/temporal/parts.py): each group
--          is in one part, so the parts' rows together are the whole answer.
-- params: $cutoff, $current (DATE, cutoff < current; NULL = the latest snapshot's date);
--         $pids (VARCHAR[]: only these properties; empty = all); $max_gap (INTEGER days),
--         $allow_gap (BOOLEAN);
--         $lang (VARCHAR); $part ('all' | 'range' | 'merged'), $lo, $hi (VARCHAR: the
--         subjects lo <= subject < hi, 'range') (macro defaults [], 31, false, 'en', 'all',
--         '', '').
WITH
present AS (
    -- the present: $current, else the latest snapshot's date
    SELECT coalesce(CAST($current AS DATE), (SELECT max(s.date) FROM snapshots AS s)) AS day
),
replaced AS (
    SELECT subject, pid, outdated, change_nature,
           list_filter(all_answers, lambda v: NOT list_contains(outdated, v)) AS now
    FROM classify(
        CAST($cutoff AS DATE) - 1, CAST($cutoff AS DATE),
        (SELECT p.day FROM present AS p), 'valid',
        max_gap := $max_gap, allow_gap := $allow_gap, part := $part, lo := $lo, hi := $hi
    )
    WHERE level = 'evolved' AND change_kind = 'replaced' AND changed_after_cutoff
      AND (len(CAST($pids AS VARCHAR[])) = 0 OR list_contains(CAST($pids AS VARCHAR[]), pid))
),
latest_snapshot AS (
    SELECT name, (SELECT p.day FROM present AS p) - date AS gap_days
    FROM snapshots
    WHERE date <= (SELECT p.day FROM present AS p)
    ORDER BY date DESC, name DESC
    LIMIT 1
),
facts AS (
    SELECT st.*
    FROM statements AS st
    SEMI JOIN replaced AS r ON r.subject = st.subject AND r.pid = st.pid
    WHERE st.snapshot = (SELECT name FROM latest_snapshot) AND st.rank <> 'deprecated'
      -- a subject range reads only the row groups that can hold it
      AND ($part <> 'range' OR (st.subject >= $lo AND st.subject < $hi))
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
      AND f.end_hi <= (SELECT p.day FROM present AS p)
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
      AND f.start_hi <= (SELECT p.day FROM present AS p)
      AND (f.end_snaktype IS NULL OR f.end_snaktype = 'novalue'
           OR (f.end_snaktype = 'value' AND f.end_lo > (SELECT p.day FROM present AS p)))
    GROUP BY f.subject, f.pid, f.value
),
found AS (
    SELECT s.subject, s.pid, s.new_object, e.old_objects,
           s.new_statement_id, s.new_start_lo, s.new_start_hi,
           e.old_statement_ids, e.old_end_hi, r.change_nature
    FROM started AS s
    JOIN ended AS e USING (subject, pid)
    JOIN replaced AS r USING (subject, pid)
),
names AS (
    SELECT n.id, n.label
    FROM entity_labels(
        (SELECT list(DISTINCT x.id) FROM (
            SELECT subject AS id FROM found UNION ALL SELECT pid FROM found
            UNION ALL SELECT new_object FROM found UNION ALL SELECT unnest(old_objects) FROM found
        ) AS x),
        label_snapshot := (SELECT name FROM latest_snapshot),
        label_lang := $lang
    ) AS n
),
old_labels AS (
    SELECT o.subject, o.pid, list(coalesce(n.label, o.value) ORDER BY o.i) AS labels
    FROM (
        SELECT subject, pid, unnest(old_objects) AS value,
               generate_subscripts(old_objects, 1) AS i
        FROM found
    ) AS o
    LEFT JOIN names AS n ON n.id = o.value
    GROUP BY o.subject, o.pid
)
SELECT
    f.subject, f.pid, f.new_object, f.old_objects,
    f.new_statement_id, f.new_start_lo, f.new_start_hi,
    f.old_statement_ids, f.old_end_hi,
    l.name AS snapshot,
    l.gap_days,
    coalesce(ns.label, f.subject) AS subject_label,
    coalesce(np.label, f.pid) AS pid_label,
    coalesce(nn.label, f.new_object) AS new_object_label,
    ol.labels AS old_objects_labels,
    f.change_nature
FROM found AS f
CROSS JOIN latest_snapshot AS l
LEFT JOIN old_labels AS ol ON ol.subject = f.subject AND ol.pid = f.pid
LEFT JOIN names AS ns ON ns.id = f.subject
LEFT JOIN names AS np ON np.id = f.pid
LEFT JOIN names AS nn ON nn.id = f.new_object
ORDER BY f.subject, f.pid, f.new_object;
