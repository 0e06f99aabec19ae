-- name: facts_at
-- purpose: The object set of every (subject, pid) group at one date and its best-ranked
--          values: the values of its statements valid then, deprecated ones excluded, merged
--          items followed, a measurement series reduced to its newest figure. Record time reads
--          the snapshot at or before the date; valid time reads the latest snapshot and
--          evaluates the qualifiers at the date (three-valued: a group with a statement of
--          unknown validity is `unknown`, with empty lists). These are the very sets the
--          classification compares: it runs here with init = cutoff = current = the date.
--          Every row says which snapshot answered (`snapshot`) and how far the date is from it
--          (`gap_days`: the date minus the snapshot's date; negative when valid time reads a
--          later snapshot). A date the snapshots cannot answer (more than $max_gap days after
--          the latest snapshot; in record time, before the first) is an error naming the
--          snapshots unless $allow_gap (sql/dates/date_reads.sql).
--          $part, $lo, $hi choose the subjects as the classification's parts do (every one,
--          a subject range without merged items, or the groups merges touch), so the facts of
--          one subject read only its rows.
-- params: $day (DATE); $mode ('record' | 'valid' | 'both'); $max_gap (INTEGER days),
--         $allow_gap (BOOLEAN), $part ('all' | 'range' | 'merged'), $lo, $hi (VARCHAR:
--         lo <= subject < hi for 'range') (macro defaults 31, false, 'all', '', '').
WITH
checked AS (
    -- the date once the snapshots are known to answer it (else an error, unless $allow_gap);
    -- the classification below reads it from here, so the check always runs
    SELECT any_value(day) AS day
    FROM date_reads(
        [CAST($day AS DATE)],
        ['day'],
        $mode,
        as_of := (SELECT max(s.date) FROM snapshots AS s),
        max_gap := $max_gap,
        allow_gap := $allow_gap
    )
    WHERE view = (CASE WHEN $mode = 'valid' THEN 'valid' ELSE 'record' END)
)
SELECT
    c.subject,
    c.pid,
    c.all_answers AS objects,
    c.latest AS best,
    c.level = 'ambiguous' AS unknown,
    replace(c.ambiguous_reason, 'unknown at init', 'unknown at the date') AS unknown_reason,
    c.init_snapshot AS snapshot,
    c.init_gap_days AS gap_days
FROM classify(
    (SELECT day FROM checked), (SELECT day FROM checked), (SELECT day FROM checked), $mode,
    as_of := (SELECT max(s.date) FROM snapshots AS s),
    part := $part,
    lo := $lo,
    hi := $hi,
    max_gap := $max_gap,
    allow_gap := true
) AS c;
