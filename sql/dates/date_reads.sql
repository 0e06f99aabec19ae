-- name: date_reads
-- purpose: Which snapshot answers each date of a question, and how far it is from it
--          (docs/classification.md, "Dates beyond the data"). Record time reads the snapshot at or
--          before the date; valid time reads the latest snapshot at or before $as_of and
--          evaluates the qualifiers at the date. A date more than $max_gap days after the
--          latest snapshot, or a date no snapshot answers (record time: before the first
--          snapshot; valid time: $as_of before it) is a problem: an error naming the
--          snapshots unless $allow_gap, else a row whose `problem` says it.
--          One row per (view, date): view ('record' | 'valid'), role, position (1-based
--          index in $days), day, snapshot, snapshot_date, coverage, gap_days (day minus the
--          snapshot's date: negative when valid time reads a later snapshot), problem.
--          Reads the view `snapshots(name, date, coverage)`.
-- params: $days (DATE[]); $roles (VARCHAR[], one name per day, e.g. 'cutoff');
--         $mode ('record' | 'valid' | 'both'); $as_of (DATE, NULL = the latest of $days);
--         $max_gap (INTEGER days); $allow_gap (BOOLEAN).
WITH
-- the view reads every manifest file: read them once
snaps AS MATERIALIZED (SELECT name, date, coverage FROM snapshots),
views AS (
    SELECT unnest(CASE WHEN $mode = 'both' THEN ['record', 'valid'] ELSE [$mode] END) AS view
),
asked AS (
    SELECT
        unnest(CAST($days AS DATE[])) AS day,
        unnest(CAST($roles AS VARCHAR[])) AS role,
        generate_subscripts(CAST($days AS DATE[]), 1) AS position
),
store AS (
    SELECT
        max(date) AS last_date,
        arg_max(name, (date, name)) AS last_name,
        min(date) AS first_date,
        arg_min(name, (date, name)) AS first_name,
        string_agg(name || ' (' || date || ')', ', ' ORDER BY date, name) AS listing
    FROM snaps
),
targets AS (
    SELECT
        v.view, a.role, a.position, a.day,
        CASE WHEN v.view = 'valid'
             THEN coalesce(CAST($as_of AS DATE), (SELECT max(day) FROM asked))
             ELSE a.day END AS read_at
    FROM views AS v CROSS JOIN asked AS a
),
reads AS (
    SELECT
        t.*,
        (SELECT arg_max(s.name, (s.date, s.name)) FROM snaps AS s WHERE s.date <= t.read_at)
            AS snapshot
    FROM targets AS t
),
judged AS (
    SELECT
        r.view, r.role, r.position, r.day, r.snapshot, s.date AS snapshot_date, s.coverage,
        r.day - s.date AS gap_days,
        CASE
            WHEN st.last_date IS NULL THEN 'the store has no snapshot'
            WHEN r.day - st.last_date > $max_gap THEN
                r.role || ' ' || r.day || ' is ' || (r.day - st.last_date)
                || ' days after the latest snapshot, ' || st.last_name || ' (' || st.last_date
                || '), more than the ' || $max_gap || ' days allowed'
            WHEN r.snapshot IS NULL AND r.view = 'record' THEN
                r.role || ' ' || r.day || ' is before the first snapshot, ' || st.first_name
                || ' (' || st.first_date || '): record time has no snapshot to read'
            WHEN r.snapshot IS NULL THEN
                'valid time reads the latest snapshot at or before ' || r.read_at
                || ', and the first is ' || st.first_name || ' (' || st.first_date || ')'
        END AS problem,
        st.listing
    FROM reads AS r
    CROSS JOIN store AS st
    LEFT JOIN snaps AS s ON s.name = r.snapshot
),
verdict AS (
    SELECT string_agg(problem, '; ' ORDER BY position, problem) AS problems
    FROM (SELECT DISTINCT position, problem FROM judged WHERE problem IS NOT NULL)
)
SELECT j.view, j.role, j.position, j.day, j.snapshot, j.snapshot_date, j.coverage,
       j.gap_days, j.problem
FROM judged AS j
CROSS JOIN verdict AS v
WHERE CASE
    WHEN v.problems IS NOT NULL AND NOT CAST($allow_gap AS BOOLEAN) THEN error(
        'kgdiff: ' || v.problems || '. Snapshots: ' || coalesce(j.listing, 'none')
        || '. Choose dates the snapshots answer, or pass allow_gap := true to answer anyway'
        || ' (the output carries the gap) or max_gap := DAYS')
    ELSE true
END
ORDER BY j.view, j.position;
