-- name: temporal_periods
-- purpose: For the benchmark export's `temporal` config
--          (docs/benchmark-export.md#the-temporal-config):
--          the years in which a group's objects are known without doubt, as runs of years
--          with the same objects ("periods"). A year is unambiguous for a group when each of
--          its statements either surely holds on every day of the year or surely holds on
--          none of it: a statement surely holds from the last day its start may be (a known
--          start is needed: without one the data do not say since when it held) to the day
--          before the first day its end may be (no end: still holding); it may hold from the
--          first day its start may be to the day before the last day its end may be. An
--          unknown start or end (somevalue) makes it never sure; a statement with only a
--          point in time (an event) may hold in the years of its point, never surely; one
--          without temporal qualifiers may hold in any year. Years run from 1 to $last_year,
--          and end before the year of the subject's end of existence (`existence_end_lo`: a
--          fact of a person who died, or a body dissolved, is not asked about afterwards).
--          One row per period with objects: subject, pid, first_year, last_year and its
--          objects (value keys, sorted). Sorted by subject, property, first_year.
-- params: $last_year (BIGINT: the last year the snapshot read knows whole). Reads the
--         relation `temporal_facts` (rows of sql/export/temporal_statements.sql) registered
--         by the caller.
WITH
kinds AS (
    SELECT
        f.subject, f.pid, f.value,
        f.start_snaktype IN ('value', 'somevalue') OR f.end_snaktype IN ('value', 'somevalue')
            AS ranged,
        f.start_snaktype, f.start_lo, f.start_hi, f.end_snaktype, f.end_lo, f.end_hi,
        f.point_snaktype, f.point_lo, f.point_hi
    FROM temporal_facts AS f
),
windows AS (
    SELECT
        f.subject, f.pid,
        least($last_year, coalesce(year(min(f.existence_end_lo)) - 1, $last_year)) AS last_year
    FROM temporal_facts AS f
    GROUP BY f.subject, f.pid
),
years AS (
    -- per statement, in years: [touch_first, touch_last] may hold, [full_first, full_last]
    -- surely holds every day (NULL: no such year); -1 and $last_year + 1 stand for no bound
    SELECT
        k.subject, k.pid, k.value,
        CASE
            WHEN coalesce(k.ranged, false) AND k.start_snaktype = 'value' THEN year(k.start_lo)
            WHEN NOT coalesce(k.ranged, false) AND k.point_snaktype = 'value'
                THEN year(k.point_lo)
            ELSE -1
        END AS touch_first,
        CASE
            WHEN coalesce(k.ranged, false) AND k.end_snaktype = 'value'
                THEN year(k.end_hi - 1)
            WHEN NOT coalesce(k.ranged, false) AND k.point_snaktype = 'value'
                THEN year(k.point_hi)
            ELSE $last_year + 1
        END AS touch_last,
        CASE
            WHEN coalesce(k.ranged, false) AND k.start_snaktype = 'value'
                 AND coalesce(k.end_snaktype, '') <> 'somevalue'
            THEN year(k.start_hi)
                 + CASE WHEN strftime(k.start_hi, '%m-%d') = '01-01' THEN 0 ELSE 1 END
        END AS full_from,
        CASE
            WHEN k.end_snaktype = 'value'
            THEN year(k.end_lo - 1)
                 - CASE WHEN strftime(k.end_lo - 1, '%m-%d') = '12-31' THEN 0 ELSE 1 END
            ELSE $last_year + 1
        END AS full_to
    FROM kinds AS k
),
spans AS (
    SELECT
        y.subject, y.pid, y.value, y.touch_first, y.touch_last,
        CASE WHEN y.full_from <= y.full_to THEN y.full_from END AS full_first,
        CASE WHEN y.full_from <= y.full_to THEN y.full_to END AS full_last
    FROM years AS y
),
doubts AS (
    -- the years in which a statement may hold but does not surely hold all year
    SELECT d.*
    FROM (
        SELECT s.subject, s.pid, s.touch_first AS lo,
               coalesce(s.full_first - 1, s.touch_last) AS hi
        FROM spans AS s
        UNION ALL
        SELECT s.subject, s.pid, s.full_last + 1 AS lo, s.touch_last AS hi
        FROM spans AS s
        WHERE s.full_last IS NOT NULL
    ) AS d
    WHERE d.lo <= d.hi
),
cuts AS (
    -- the years at which something changes, and the window's ends
    SELECT DISTINCT c.subject, c.pid, greatest(1, least(c.cut, w.last_year + 1)) AS cut
    FROM (
        SELECT s.subject, s.pid, unnest([
            s.touch_first, s.touch_last + 1, s.full_first, s.full_last + 1, 1, $last_year + 1
        ]) AS cut
        FROM spans AS s
    ) AS c
    JOIN windows AS w ON w.subject = c.subject AND w.pid = c.pid
    WHERE c.cut IS NOT NULL
),
segments AS (
    SELECT subject, pid, lo, hi
    FROM (
        SELECT c.subject, c.pid, c.cut AS lo,
               lead(c.cut) OVER (PARTITION BY c.subject, c.pid ORDER BY c.cut) - 1 AS hi
        FROM cuts AS c
    )
    WHERE hi IS NOT NULL
),
judged AS (
    SELECT
        g.subject, g.pid, g.lo, g.hi,
        EXISTS (
            SELECT 1 FROM doubts AS d
            WHERE d.subject = g.subject AND d.pid = g.pid AND d.lo <= g.hi AND d.hi >= g.lo
        ) AS doubtful,
        coalesce((
            SELECT list(DISTINCT s.value ORDER BY s.value) FROM spans AS s
            WHERE s.subject = g.subject AND s.pid = g.pid
              AND s.full_first <= g.lo AND s.full_last >= g.hi
        ), CAST([] AS VARCHAR[])) AS objects
    FROM segments AS g
),
runs AS (
    SELECT
        j.*,
        sum(CASE WHEN j.doubtful OR j.objects IS DISTINCT FROM j.previous THEN 1 ELSE 0 END)
            OVER (PARTITION BY j.subject, j.pid ORDER BY j.lo) AS run
    FROM (
        SELECT
            x.*,
            lag(CASE WHEN x.doubtful THEN NULL ELSE x.objects END)
                OVER (PARTITION BY x.subject, x.pid ORDER BY x.lo) AS previous
        FROM judged AS x
    ) AS j
)
SELECT
    r.subject, r.pid, min(r.lo) AS first_year, max(r.hi) AS last_year,
    any_value(r.objects) AS objects
FROM runs AS r
WHERE NOT r.doubtful AND len(r.objects) > 0
GROUP BY r.subject, r.pid, r.run
ORDER BY r.subject, r.pid, first_year;
