-- name: year_span
-- purpose: Catalog macro `kgdiff_year_span(t, last)`: the first (or, when `last`, the last)
--          astronomical year (1 BCE is 0) a time value of year precision or coarser denotes,
--          from its parts `t` (kgdiff_time_parts). As kgdiff/timevalue.py: centuries and
--          millennia count from 1 (the 20th century is 1901-2000); decades and blocks of
--          10^(9 - precision) years are aligned on multiples of their size, mirrored before
--          the common era ("the 40s BCE" are 49-40 BCE), which has no year 0.
-- params: none; `t` (a kgdiff_time_parts struct) and `last` (BOOLEAN) are the macro's
--         parameters.
CREATE OR REPLACE MACRO kgdiff_year_span(t, last) AS
CASE
    WHEN t.precision >= 9 THEN t.written + CASE WHEN t.written < 0 THEN 1 ELSE 0 END
    WHEN t.precision IN (6, 7)
    THEN (kgdiff_floor_div(t.written + CASE WHEN t.written < 0 THEN 1 ELSE 0 END - 1, t.step)
          + CASE WHEN last THEN 1 ELSE 0 END) * t.step
         + CASE WHEN last THEN 0 ELSE 1 END
    WHEN t.written >= 0
    THEN t.written // t.step * t.step + CASE WHEN last THEN t.step - 1 ELSE 0 END
    WHEN last THEN 1 - greatest(-t.written // t.step * t.step, 1)
    ELSE 1 - (-t.written // t.step * t.step + t.step - 1)
END;
