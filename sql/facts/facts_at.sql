-- name: facts_at
-- purpose: The object set of every (subject, pid) group at one date and its best-ranked
--          values: the values of its statements valid then, deprecated ones excluded, merged
--          items followed, a measurement series reduced to its newest figure. Record time reads
--          the snapshot at or before the date; valid time reads the latest snapshot and
--          evaluates the qualifiers at the date (three-valued: a group with a statement of
--          unknown validity is `unknown`, with empty lists). These are the very sets the
--          classification compares: it runs here with init = cutoff = current = the date.
-- params: $day (DATE); $mode ('record' | 'valid' | 'both').
SELECT
    subject,
    pid,
    all_answers AS objects,
    latest AS best,
    level = 'ambiguous' AS unknown,
    replace(ambiguous_reason, 'unknown at init', 'unknown at the date') AS unknown_reason,
    init_snapshot AS snapshot
FROM classify(
    CAST($day AS DATE), CAST($day AS DATE), CAST($day AS DATE), $mode,
    as_of := (SELECT max(date) FROM snapshots)
);
