-- name: classify
-- purpose: Classify every (subject, pid) group for an LLM knowledge cutoff: level (stable,
--          evolved, uncharted, recent, retracted, ambiguous), change kind, latest / outdated /
--          all answers. Exact semantics: docs/classification.md (DESIGN.md §3-4).
--          Reads the views `snapshots(name, date)` and `statements(snapshot, subject, pid,
--          rank, value, start_*, end_*, point_*)`.
-- params: $init, $cutoff, $current (DATE, init < cutoff < current); $mode ('record' | 'valid').
WITH
dates AS (
    SELECT * FROM (VALUES
        ('init', CAST($init AS DATE)),
        ('cutoff', CAST($cutoff AS DATE)),
        ('current', CAST($current AS DATE))
    ) AS d(role, day)
),
reads AS (
    -- the snapshot each date reads: record time, the one at or before it; valid time, the
    -- one at or before `current` for all three dates
    SELECT d.role, d.day, (
        SELECT s.name FROM snapshots AS s
        WHERE s.date <= (CASE WHEN $mode = 'valid' THEN CAST($current AS DATE) ELSE d.day END)
        ORDER BY s.date DESC, s.name DESC
        LIMIT 1
    ) AS snapshot
    FROM dates AS d
),
implied AS (
    -- valid time: the start a statement without temporal qualifiers implicitly has, the
    -- subject's death (for causes/manners of death) or its start of existence
    SELECT
        st.snapshot, st.subject,
        CASE WHEN st.pid = 'P570' THEN 'death' ELSE 'existence' END AS kind,
        min(st.time_lo) AS lo,
        first(st.time_hi ORDER BY st.time_lo, st.time_hi) AS hi
    FROM statements AS st
    WHERE st.pid IN ('P570', 'P569', 'P571', 'P577', 'P575', 'P580')
      AND st.rank <> 'deprecated' AND st.snaktype = 'value' AND st.time_lo IS NOT NULL
      AND st.snapshot IN (SELECT snapshot FROM reads)
    GROUP BY ALL
),
candidates AS (
    SELECT
        r.role, r.day, st.subject, st.pid, st.value, st.rank, st.value_type,
        coalesce(st.start_snaktype IN ('value', 'somevalue'), false) AS has_start,
        coalesce(st.end_snaktype IN ('value', 'somevalue'), false) AS has_end,
        coalesce(st.point_snaktype IN ('value', 'somevalue'), false) AS has_point,
        st.start_snaktype, st.start_lo, st.start_hi,
        st.end_snaktype, st.end_lo, st.end_hi,
        st.point_snaktype, st.point_lo, st.point_hi,
        im.lo AS implied_lo, im.hi AS implied_hi
    FROM reads AS r
    JOIN statements AS st ON st.snapshot = r.snapshot
    LEFT JOIN implied AS im
        ON $mode = 'valid' AND im.snapshot = r.snapshot AND im.subject = st.subject
       AND im.kind = (CASE WHEN st.pid IN ('P509', 'P1196') THEN 'death' ELSE 'existence' END)
    WHERE st.rank <> 'deprecated'
),
bounded AS (
    SELECT
        * REPLACE (
            CASE WHEN implied THEN 'value' ELSE start_snaktype END AS start_snaktype,
            CASE WHEN implied THEN implied_lo ELSE start_lo END AS start_lo,
            CASE WHEN implied THEN implied_hi ELSE start_hi END AS start_hi,
            has_start OR implied AS has_start
        )
    FROM (
        SELECT *, (NOT has_start AND NOT has_end AND NOT has_point
                   AND implied_lo IS NOT NULL) AS implied
        FROM candidates
    )
),
judged AS (
    SELECT
        role, subject, pid, value, rank, point_lo,
        coalesce(value_type = 'quantity', false) AND has_point AND NOT has_start AND NOT has_end
            AS series_like,
        CASE
            WHEN NOT has_start AND NOT has_end AND has_point THEN
                CASE
                    WHEN point_snaktype = 'value' AND point_hi <= day THEN 'valid'
                    WHEN point_snaktype = 'value' AND point_lo > day THEN 'not_valid'
                    ELSE 'unknown'
                END
            WHEN (start_snaktype = 'value' AND start_lo > day)
                 OR (end_snaktype = 'value' AND end_hi <= day) THEN 'not_valid'
            WHEN start_snaktype = 'somevalue' OR end_snaktype = 'somevalue' THEN 'unknown'
            WHEN (NOT has_start OR start_hi <= day)
                 AND (NOT has_end OR end_lo > day) THEN 'valid'
            ELSE 'unknown'
        END AS validity
    FROM bounded
),
evaluated AS (
    -- a measurement series keeps only its newest valid figure(s)
    SELECT
        role, subject, pid, value, rank,
        CASE
            WHEN validity = 'valid' AND is_series AND point_lo <> newest THEN 'superseded'
            ELSE validity
        END AS validity
    FROM (
        SELECT
            *,
            coalesce(bool_and(series_like) OVER (PARTITION BY role, subject, pid), false)
                AS is_series,
            max(CASE WHEN validity = 'valid' THEN point_lo END)
                OVER (PARTITION BY role, subject, pid) AS newest
        FROM judged
    )
),
per_value AS (
    SELECT
        subject, pid, value,
        bool_or(role = 'init' AND validity = 'valid') AS in_i,
        bool_or(role = 'cutoff' AND validity = 'valid') AS in_c,
        bool_or(role = 'current' AND validity = 'valid') AS in_n
    FROM evaluated
    GROUP BY subject, pid, value
),
unknowns AS (
    SELECT
        subject, pid,
        CASE
            WHEN bool_or(role = 'init' AND validity = 'unknown') THEN 'unknown at init'
            WHEN bool_or(role = 'cutoff' AND validity = 'unknown') THEN 'unknown at cutoff'
            WHEN bool_or(role = 'current' AND validity = 'unknown') THEN 'unknown at current'
        END AS ambiguous_reason
    FROM evaluated
    GROUP BY subject, pid
),
best AS (
    -- latest answers: N's values carried by the best rank present among them
    SELECT subject, pid, list(DISTINCT value ORDER BY value) AS latest
    FROM (
        SELECT subject, pid, value, rank,
               min(CASE WHEN rank = 'preferred' THEN 0 ELSE 1 END)
                   OVER (PARTITION BY subject, pid) AS best
        FROM evaluated
        WHERE role = 'current' AND validity = 'valid'
    )
    WHERE (CASE WHEN rank = 'preferred' THEN 0 ELSE 1 END) = best
    GROUP BY subject, pid
),
sizes AS (
    SELECT
        subject, pid,
        count(*) FILTER (in_i) AS n_i,
        count(*) FILTER (in_c) AS n_c,
        count(*) FILTER (in_n) AS n_n,
        count(*) FILTER (in_i AND in_c) AS n_ic,
        count(*) FILTER (in_i AND in_n) AS n_in,
        count(*) FILTER (in_c AND in_n) AS n_cn,
        count(*) FILTER (in_i AND in_c AND in_n) AS n_icn,
        list(value ORDER BY value) FILTER (in_i OR in_c OR in_n) AS all_values,
        list(value ORDER BY value) FILTER ((in_i OR in_c) AND NOT in_n) AS gone
    FROM per_value
    GROUP BY subject, pid
),
levels AS (
    SELECT
        z.*, u.ambiguous_reason,
        CASE
            WHEN u.ambiguous_reason IS NOT NULL THEN 'ambiguous'
            WHEN n_n > 0 AND n_i = n_n AND n_c = n_n AND n_icn = n_n THEN 'stable'
            WHEN n_n = 0 AND (n_i > 0 OR n_c > 0) THEN 'retracted'
            WHEN n_i > 0 THEN 'evolved'
            WHEN n_c = 0 AND n_n > 0 THEN 'uncharted'
            WHEN n_c > 0 THEN 'recent'
        END AS level,
        -- P = C when C differs from N, else I; |P| and |P ∩ N|
        NOT (n_c = n_n AND n_cn = n_n) AS c_differs,
        CASE WHEN NOT (n_c = n_n AND n_cn = n_n) THEN n_c ELSE n_i END AS n_p,
        CASE WHEN NOT (n_c = n_n AND n_cn = n_n) THEN n_cn ELSE n_in END AS n_pn
    FROM sizes AS z
    JOIN unknowns AS u USING (subject, pid)
)
SELECT
    l.subject,
    l.pid,
    l.level,
    CASE
        WHEN l.level <> 'evolved' THEN NULL
        WHEN l.n_pn = l.n_p AND l.n_n > l.n_p THEN 'added'
        WHEN l.n_pn = l.n_n AND l.n_p > l.n_n THEN 'removed'
        WHEN l.n_pn = 0 THEN 'replaced'
        ELSE 'mixed'
    END AS change_kind,
    CASE WHEN l.level = 'evolved' THEN l.c_differs END AS changed_after_cutoff,
    CASE WHEN l.level = 'ambiguous' THEN [] ELSE coalesce(b.latest, []) END AS latest,
    CASE WHEN l.level = 'evolved' THEN coalesce(l.gone, []) ELSE [] END AS outdated,
    CASE WHEN l.level = 'ambiguous' THEN [] ELSE coalesce(l.all_values, []) END AS all_answers,
    l.ambiguous_reason
FROM levels AS l
LEFT JOIN best AS b USING (subject, pid)
WHERE l.level IS NOT NULL
ORDER BY l.subject, l.pid;
