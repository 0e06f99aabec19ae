-- name: month_days
-- purpose: Catalog macro `kgdiff_month_days(year, month, julian)`: the length of a month
--          (1..12) of an astronomical year in the Gregorian calendar, or the Julian one when
--          `julian` (as kgdiff/calendars.py days_in_month).
-- params: none; `year` (integer), `month` (1..12), `julian` (BOOLEAN) are the macro's
--         parameters.
CREATE OR REPLACE MACRO kgdiff_month_days(year, month, julian) AS
CASE
    WHEN month <> 2 THEN [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month]
    WHEN year % 4 = 0 AND (julian OR year % 100 <> 0 OR year % 400 = 0) THEN 29
    ELSE 28
END;
