-- name: pooled
-- purpose: Catalog macro `kgdiff_pooled(statements, periods)`: the pooling rules
--          (ChroKnowBench, docs/questions.md; exact semantics: the docstring of
--          kgdiff/temporal/pools.py), in one place for the `pools` question
--          (sql/pools/pools.sql) and the benchmark export's pools config
--          (sql/export/pool_years.sql). `statements` and `periods` are the names of the
--          caller's relations (CTEs are fine: read with query_table): `statements`, rows of
--          the view of that name (subject, pid, rank, value, start_*, end_*, point_*), the
--          statements to pool, deprecated ones left out here;
--          `periods(idx, label, lo, hi)`, the periods in order (idx from 1).
--          A statement may be valid on the days [may_lo, may_hi] and, ranged, is surely
--          valid on [sure_lo, sure_hi] (an unknown bound is never sure; the end is exclusive);
--          an event counts in a period its point lies in, an unqualified statement in every
--          period. One row per group (subject, property) with an object in some period, and
--          each period: `subject`, `property`, `idx`, `label`, `lo`, `hi`, `objects` (value
--          keys, sorted), `precision_only` (those only precision makes overlap the period),
--          `unqualified` (those without temporal qualifiers), `filled` (an empty period given
--          the last non-empty period's pool before it; periods before a group's first
--          object stay empty and are not filled). Unsorted.
-- params: none; `statements` and `periods` (VARCHAR: relation names) are the macro's
--         parameters.
CREATE OR REPLACE MACRO kgdiff_pooled(statements, periods) AS TABLE
WITH
candidates AS (
    SELECT
        st.subject, st.pid AS property, st.value,
        st.start_snaktype AS s_kind, st.start_lo, st.start_hi,
        st.end_snaktype AS e_kind, st.end_lo, st.end_hi,
        st.point_snaktype AS p_kind, st.point_lo, st.point_hi,
        coalesce(st.start_snaktype IN ('value', 'somevalue'), false)
            OR coalesce(st.end_snaktype IN ('value', 'somevalue'), false) AS ranged,
        coalesce(st.point_snaktype IN ('value', 'somevalue'), false) AS pointed
    FROM query_table(statements) AS st
    WHERE st.rank <> 'deprecated'
),
spans AS (
    SELECT
        c.subject, c.property, c.value, c.point_lo, c.point_hi,
        CASE WHEN c.ranged THEN 'ranged' WHEN c.pointed THEN 'event' ELSE 'unqualified' END
            AS kind,
        CASE
            WHEN c.ranged AND c.s_kind = 'value' THEN c.start_lo
            WHEN NOT c.ranged AND c.p_kind = 'value' THEN c.point_lo
            ELSE DATE '-infinity'
        END AS may_lo,
        CASE
            WHEN c.ranged AND c.e_kind = 'value' THEN c.end_hi - 1
            WHEN NOT c.ranged AND c.p_kind = 'value' THEN c.point_hi
            ELSE DATE 'infinity'
        END AS may_hi,
        CASE
            WHEN c.s_kind = 'somevalue' OR c.e_kind = 'somevalue' THEN NULL
            WHEN c.s_kind = 'value' THEN c.start_hi
            ELSE DATE '-infinity'
        END AS sure_lo,
        CASE WHEN c.e_kind = 'value' THEN c.end_lo - 1 ELSE DATE 'infinity' END AS sure_hi
    FROM candidates AS c
),
hits AS (
    SELECT
        s.subject, s.property, p.idx, s.value,
        bool_or(CASE s.kind
            WHEN 'unqualified' THEN true
            WHEN 'event' THEN s.point_lo >= p.lo AND s.point_hi <= p.hi
            ELSE s.sure_lo <= s.sure_hi AND s.sure_lo <= p.hi AND s.sure_hi >= p.lo
        END) IS TRUE AS sure,
        bool_or(s.kind = 'unqualified') AS unqualified
    FROM spans AS s
    JOIN query_table(periods) AS p ON s.may_lo <= p.hi AND s.may_hi >= p.lo
    WHERE s.may_lo <= s.may_hi
    GROUP BY s.subject, s.property, p.idx, s.value
),
grid AS (
    -- every period of every reported group, with its own (unfilled) pool
    SELECT
        g.subject, g.property, p.idx, p.label, p.lo, p.hi,
        coalesce(list(h.value ORDER BY h.value) FILTER (h.value IS NOT NULL),
                 CAST([] AS VARCHAR[])) AS objects,
        coalesce(list(h.value ORDER BY h.value) FILTER (NOT h.sure),
                 CAST([] AS VARCHAR[])) AS precision_only,
        coalesce(list(h.value ORDER BY h.value) FILTER (h.unqualified),
                 CAST([] AS VARCHAR[])) AS unqualified
    FROM (SELECT DISTINCT h.subject, h.property FROM hits AS h) AS g
    CROSS JOIN query_table(periods) AS p
    LEFT JOIN hits AS h ON h.subject = g.subject AND h.property = g.property AND h.idx = p.idx
    GROUP BY g.subject, g.property, p.idx, p.label, p.lo, p.hi
),
sources AS (
    -- the period whose pool each period shows: itself, or the last non-empty one before it
    SELECT
        gr.*,
        max(CASE WHEN len(gr.objects) > 0 THEN gr.idx END) OVER (
            PARTITION BY gr.subject, gr.property ORDER BY gr.idx
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW
        ) AS source_idx
    FROM grid AS gr
)
SELECT
    s.subject, s.property, s.idx, s.label, s.lo, s.hi,
    coalesce(src.objects, s.objects) AS objects,
    coalesce(src.precision_only, s.precision_only) AS precision_only,
    coalesce(src.unqualified, s.unqualified) AS unqualified,
    len(s.objects) = 0 AND s.source_idx IS NOT NULL AS filled
FROM sources AS s
LEFT JOIN grid AS src
    ON src.subject = s.subject AND src.property = s.property AND src.idx = s.source_idx;
