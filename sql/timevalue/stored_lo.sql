-- name: stored_lo
-- purpose: Catalog macro `kgdiff_stored_lo(time_lo, value)`: the first day of a time value
--          as a day number (days since 1970-01-01, BIGINT) from a row of the store: its
--          `time_lo` DATE's own number, exact within 2e9 days of 1970 (DuckDB's DATE range
--          clamps only dates millions of years away, docs/data-model.md#time), else
--          kgdiff_time_lo of its value key. The same number as kgdiff_time_lo(value), cheaply.
-- params: none; `time_lo` (DATE) and `value` (VARCHAR, its value key) are the macro's
--         parameters.
CREATE OR REPLACE MACRO kgdiff_stored_lo(time_lo, value) AS
CASE
    WHEN abs(CAST(time_lo - DATE '1970-01-01' AS BIGINT)) < 2000000000
        THEN CAST(time_lo - DATE '1970-01-01' AS BIGINT)
    ELSE kgdiff_time_lo(value)
END;
