-- name: floor_div
-- purpose: Catalog macro `kgdiff_floor_div(a, b)`: a divided by b (b > 0) rounded down, for
--          the calendar arithmetic of kgdiff_day_number (DuckDB's `//` rounds toward zero,
--          which is wrong for the negative years before the common era).
-- params: none; `a`, `b` (integers, b > 0) are the macro's parameters.
CREATE OR REPLACE MACRO kgdiff_floor_div(a, b) AS a // b - CASE WHEN a % b < 0 THEN 1 ELSE 0 END;
