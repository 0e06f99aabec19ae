-- name: chain_reading
-- purpose: The first stage of sql/chains/chains.sql: the snapshot a chain search at $ref_date
--          reads in record time (the latest at or before the date), the date as a day and
--          `gap_days` (the date minus the snapshot's date). A date more than $max_gap days
--          after the latest snapshot, or before the first, is an error naming the snapshots
--          unless $allow_gap (sql/dates/date_reads.sql). One aggregated row: no filter of a
--          later stage can be pushed below it and skip the check.
-- params: $ref_date (DATE); $max_gap (INTEGER days); $allow_gap (BOOLEAN). Reads the macro
--         `date_reads`.
SELECT any_value(d.snapshot) AS snapshot, any_value(d.day) AS day,
       any_value(d.gap_days) AS gap_days
FROM date_reads(
    [CAST($ref_date AS DATE)], ['date'], 'record',
    max_gap := $max_gap, allow_gap := $allow_gap
) AS d;
