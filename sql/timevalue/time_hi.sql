-- name: time_hi
-- purpose: Catalog macro `kgdiff_time_hi(value)`: the last day a time value key may denote
--          (its interval's end), as kgdiff_time_lo gives the first: days since 1970-01-01,
--          a BIGINT. NULL for a value key of another kind.
-- params: none; `value` (VARCHAR, a value key) is the macro's parameter.
CREATE OR REPLACE MACRO kgdiff_time_hi(value) AS
list_transform([kgdiff_time_parts(value)], lambda t:
    CASE WHEN t IS NOT NULL THEN CAST(greatest(least(
        kgdiff_time_day(t, true), 9223372036854775807
    ), -9223372036854775808) AS BIGINT) END
)[1];
