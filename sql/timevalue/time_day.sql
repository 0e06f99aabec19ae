-- name: time_day
-- purpose: Catalog macro `kgdiff_time_day(t, last)`: the first (or, when `last`, the last)
--          day a time value denotes, from its parts `t` (kgdiff_time_parts), as a day number
--          (kgdiff_day_number, HUGEINT). As kgdiff/timevalue.py: precisions finer than a day
--          are a day; a month or day given as 00 widens the value to its year or month; a day
--          past the month's end is its last day.
-- params: none; `t` (a kgdiff_time_parts struct) and `last` (BOOLEAN) are the macro's
--         parameters.
CREATE OR REPLACE MACRO kgdiff_time_day(t, last) AS
list_transform([kgdiff_year_span(t, last)], lambda y: kgdiff_day_number(
    y,
    CASE WHEN t.precision >= 10 AND t.month > 0 THEN t.month WHEN last THEN 12 ELSE 1 END,
    CASE
        WHEN t.precision >= 11 AND t.month > 0 AND t.day > 0
            THEN least(t.day, kgdiff_month_days(y, t.month, t.julian))
        WHEN t.precision >= 10 AND t.month > 0 AND last
            THEN kgdiff_month_days(y, t.month, t.julian)
        WHEN last THEN 31
        ELSE 1
    END,
    t.julian
))[1];
