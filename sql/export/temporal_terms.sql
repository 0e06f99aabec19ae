-- name: temporal_terms
-- purpose: For the benchmark export's `temporal` config (sql/export/temporal_statements.sql,
--          `office_held_again`): every position (P39) a holder holds in more than one
--          statement, with each such statement's start and end bounds, read in the latest
--          snapshot at or before $current that holds any of the holder's positions (a subset
--          snapshot may not hold the holder at all). Not deprecated. Read once per export
--          for every holder: each range of groups read them again for its objects, a scan of
--          every snapshot's statements each time. Unsorted.
-- params: $current (DATE). Reads the views `statements` and `snapshots`.
WITH
positions AS (
    SELECT
        st.subject AS holder, st.value AS position,
        st.start_lo, st.start_hi, st.end_lo, st.end_hi
    FROM statements AS st
    JOIN snapshots AS s ON s.name = st.snapshot
    WHERE s.date <= CAST($current AS DATE) AND st.pid = 'P39' AND st.rank <> 'deprecated'
    QUALIFY dense_rank() OVER (PARTITION BY st.subject ORDER BY s.date DESC, s.name DESC) = 1
)
SELECT t.holder, t.start_lo, t.start_hi, t.end_lo, t.end_hi
FROM (
    SELECT p.*, count(*) OVER (PARTITION BY p.holder, p.position) AS n_terms
    FROM positions AS p
) AS t
WHERE t.n_terms > 1;
