-- name: stored_hi
-- purpose: Catalog macro `kgdiff_stored_hi(time_hi, value)`: the last day of a time value
--          as a day number from a row of the store, as kgdiff_stored_lo gives the first: its
--          `time_hi` DATE's own number where exact, else kgdiff_time_hi of its value key.
-- params: none; `time_hi` (DATE) and `value` (VARCHAR, its value key) are the macro's
--         parameters.
CREATE OR REPLACE MACRO kgdiff_stored_hi(time_hi, value) AS
CASE
    WHEN abs(CAST(time_hi - DATE '1970-01-01' AS BIGINT)) < 2000000000
        THEN CAST(time_hi - DATE '1970-01-01' AS BIGINT)
    ELSE kgdiff_time_hi(value)
END;
