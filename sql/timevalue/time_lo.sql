-- name: time_lo
-- purpose: Catalog macro `kgdiff_time_lo(value)`: the first day a time value key may denote
--          (its interval's start, docs/data-model.md#time) as days since 1970-01-01 in the
--          proleptic Gregorian calendar: a BIGINT computed without any date type, so exact
--          from the Big Bang to the far future (clamped to BIGINT only past 16-digit years).
--          The sortable key of kgdiff/timetext.py (day_key), which computes the same number
--          in Python. NULL for a value key of another kind.
-- params: none; `value` (VARCHAR, a value key) is the macro's parameter.
CREATE OR REPLACE MACRO kgdiff_time_lo(value) AS
list_transform([kgdiff_time_parts(value)], lambda t:
    CASE WHEN t IS NOT NULL THEN CAST(greatest(least(
        kgdiff_time_day(t, false), 9223372036854775807
    ), -9223372036854775808) AS BIGINT) END
)[1];
