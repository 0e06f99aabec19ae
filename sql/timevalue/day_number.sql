-- name: day_number
-- purpose: Catalog macro `kgdiff_day_number(year, month, day, julian)`: the day number
--          (days since 1970-01-01, proleptic Gregorian) of a date of an astronomical year (1 BCE
--          is 0) in the Gregorian calendar, or the Julian one when `julian`; any year, in
--          HUGEINT arithmetic (never a DATE). The same integer arithmetic as
--          kgdiff/calendars.py: years counted from March (`y`), so that the leap day ends the
--          year; -719468 and -719470 are the days from 1 March of year 0 to 1970-01-01 in each
--          calendar. A day past the month's end runs into the next month.
-- params: none; `year` (integer), `month` (1..12), `day`, `julian` (BOOLEAN) are the
--         macro's parameters.
CREATE OR REPLACE MACRO kgdiff_day_number(year, month, day, julian) AS
list_transform([CAST(year AS HUGEINT) - CASE WHEN month <= 2 THEN 1 ELSE 0 END], lambda y:
    y * 365 + kgdiff_floor_div(y, 4)
    + CASE
        WHEN julian THEN -719470
        ELSE kgdiff_floor_div(y, 400) - kgdiff_floor_div(y, 100) - 719468
    END
)[1] + (153 * (CASE WHEN month > 2 THEN month - 3 ELSE month + 9 END) + 2) // 5 + day - 1;
