-- name: curve
-- purpose: The staleness curve in one pass: for init, consecutive month starts as cutoffs
--          and current, the groups of each level at every month, exactly as the
--          classification (sql/classify/classify.sql, docs/classification.md) with init, that
--          month and current would count them. One row per (month, level) with groups > 0.
--          How it shares the work: the dates are numbered (0 = init, 1..$months = the months,
--          $months + 1 = current) and every statement is judged once for all of them: the
--          dates at which it is VALID and UNKNOWN, and those its snapshot is read for, are
--          bit masks (a bound's dates before or after it are a prefix or a suffix); values and
--          groups fold their masks with bit_or, so a group's sets at every date come from one
--          aggregation and its level at every month from a few mask operations. Only the
--          groups of a merge's target and those with series-like statements (a measurement
--          series: a value counts where it has the newest valid point in time) keep a list
--          of their values, judged with list functions as classify.sql judges every group.
--          Reads the same views and macros as classify.sql (the rules of merges, parts, implied
--          starts and coverage are its macros, sql/classify/<name>.sql), and is run part by
--          part like it ($part, $lo, $hi; kgdiff/temporal/parts.py): the parts' rows add up.
--          The mask has 64 bits, so at most 61 months per run (kgdiff/temporal/staleness.py
--          runs more in windows). Mode 'both' is not computed here.
-- params: $init, $current (DATE); $first_month (DATE, the first day of a month, after $init);
--         $months (INTEGER, 1..61: the months $first_month, $first_month + 1 month, ...,
--         all before $current); $mode ('record' | 'valid');
--         $part ('all' | 'range' | 'merged'), $lo, $hi (VARCHAR: lo <= subject < hi, 'range').
WITH
reads AS (
    -- the snapshot each numbered date reads (record time: the one at or before it; valid
    -- time: the one at or before current for every date); the caller checked the dates
    SELECT r.view, r.position - 1 AS position, r.snapshot, r.coverage
    FROM date_reads(
        [CAST($init AS DATE)]
        || list_transform(range(CAST($months AS INTEGER)),
                          lambda i: CAST(CAST($first_month AS DATE) + to_months(CAST(i AS INTEGER))
                                         AS DATE))
        || [CAST($current AS DATE)],
        ['init'] || list_transform(range(CAST($months AS INTEGER)), lambda i: 'cutoff')
        || ['current'],
        $mode,
        as_of := CAST($current AS DATE),
        allow_gap := true
    ) AS r
),
span AS (
    SELECT CAST(CAST($first_month AS DATE) + to_months(CAST($months AS INTEGER) - 1) AS DATE)
        AS last_month
),
reads_by_snapshot AS (
    -- one row per snapshot read: the dates it is read for, as a mask
    SELECT view, snapshot, bit_or(CAST(1 AS UBIGINT) << position) AS read_at
    FROM reads
    WHERE snapshot IS NOT NULL
    GROUP BY view, snapshot
),
resolved AS (
    -- the merges followed: merged items and their targets (sql/classify/merge_targets.sql)
    SELECT qid, target FROM kgdiff_merge_targets(CAST($current AS DATE))
),
merged_subjects AS (
    SELECT qid FROM resolved UNION SELECT target FROM resolved
),
chunk_statements AS (
    -- the statements of this part (sql/classify/part_statements.sql)
    SELECT * FROM kgdiff_part_statements($part, $lo, $hi, 'merged_subjects')
),
created AS (
    -- valid time: when an item was created (sql/classify/created.sql)
    SELECT c.qid, c.lo, c.hi
    FROM kgdiff_created(
        $mode, CAST($current AS DATE), $part, $lo, $hi, 'merged_subjects', 'resolved'
    ) AS c
),
implied AS (
    -- valid time: the start a statement without temporal qualifiers implicitly has
    -- (sql/classify/implied.sql)
    SELECT im.snapshot, im.subject, im.kind, im.lo, im.hi
    FROM kgdiff_implied($part, $lo, $hi, 'merged_subjects', 'reads') AS im
),
subset_reads AS (
    SELECT view, snapshot, bit_or(CAST(1 AS UBIGINT) << position) AS read_at
    FROM reads
    WHERE coverage = 'subset'
    GROUP BY view, snapshot
),
covered AS (
    -- the subjects each subset snapshot read knows about, for the subjects of this part
    -- (sql/classify/covered.sql)
    SELECT snapshot, subject
    FROM kgdiff_covered($part, $lo, $hi, 'merged_subjects', 'resolved', 'subset_reads')
),
candidates AS (
    SELECT
        r.view, r.read_at, st.subject, st.pid, st.value, st.value_type,
        coalesce(st.start_snaktype IN ('value', 'somevalue'), false) AS has_start,
        coalesce(st.end_snaktype IN ('value', 'somevalue'), false) AS has_end,
        coalesce(st.point_snaktype IN ('value', 'somevalue'), false) AS has_point,
        st.start_snaktype, st.start_lo, st.start_hi,
        st.end_snaktype, st.end_lo, st.end_hi,
        st.point_snaktype, st.point_lo, st.point_hi,
        CASE WHEN im.lo IS NOT NULL THEN im.lo ELSE cr.lo END AS implied_lo,
        CASE WHEN im.lo IS NOT NULL THEN im.hi ELSE cr.hi END AS implied_hi
    FROM chunk_statements AS st
    JOIN reads_by_snapshot AS r ON r.snapshot = st.snapshot
    LEFT JOIN implied AS im
        ON r.view = 'valid' AND im.snapshot = r.snapshot AND im.subject = st.subject
       AND im.kind = (CASE WHEN st.pid IN ('P509', 'P1196') THEN 'death' ELSE 'existence' END)
    LEFT JOIN resolved AS rs ON rs.qid = st.subject
    LEFT JOIN created AS cr ON r.view = 'valid' AND cr.qid = coalesce(rs.target, st.subject)
    WHERE st.rank <> 'deprecated'
),
bounded AS (
    -- an implied start replaces the missing one
    SELECT
        view, read_at, subject, pid, value, value_type,
        has_start OR implied AS has_start, has_end, has_point,
        CASE WHEN implied THEN 'value' ELSE start_snaktype END AS start_snaktype,
        CASE WHEN implied THEN implied_lo ELSE start_lo END AS start_lo,
        CASE WHEN implied THEN implied_hi ELSE start_hi END AS start_hi,
        end_snaktype, end_lo, end_hi, point_snaktype, point_lo, point_hi
    FROM (
        SELECT *, (NOT has_start AND NOT has_end AND NOT has_point
                   AND implied_lo IS NOT NULL) AS implied
        FROM candidates
    )
),
bounds AS (
    -- the bounds the rules compare the dates with: an event's point, else the start and end
    SELECT
        *,
        coalesce(value_type = 'quantity', false) AND has_point AND NOT has_start AND NOT has_end
            AS series_like,
        NOT has_start AND NOT has_end AND has_point AS event,
        CASE WHEN NOT has_start AND NOT has_end AND has_point
             THEN CASE WHEN point_snaktype = 'value' THEN point_lo END
             WHEN start_snaktype = 'value' THEN start_lo END AS lo_after,
        CASE WHEN NOT has_start AND NOT has_end AND has_point THEN point_hi
             ELSE start_hi END AS hi_from
    FROM bounded
),
before AS (
    -- for each bound X, how many of the numbered dates are before it (date < X: a prefix of
    -- the dates, whose mask is (1 << count) - 1; X <= date: the rest); NULL for a NULL bound
    SELECT
        *,
        (CAST(lo_after > CAST($init AS DATE) AS INTEGER)
             + CAST(lo_after > CAST($current AS DATE) AS INTEGER)
             + CASE WHEN lo_after <= CAST($first_month AS DATE) THEN 0
                    WHEN lo_after > (SELECT last_month FROM span) THEN CAST($months AS INTEGER)
                    ELSE CAST(date_diff('month', CAST($first_month AS DATE), lo_after) AS INTEGER)
                         + CAST(day(lo_after) > 1 AS INTEGER) END) AS n_lo_after,
        (CAST(hi_from > CAST($init AS DATE) AS INTEGER)
             + CAST(hi_from > CAST($current AS DATE) AS INTEGER)
             + CASE WHEN hi_from <= CAST($first_month AS DATE) THEN 0
                    WHEN hi_from > (SELECT last_month FROM span) THEN CAST($months AS INTEGER)
                    ELSE CAST(date_diff('month', CAST($first_month AS DATE), hi_from) AS INTEGER)
                         + CAST(day(hi_from) > 1 AS INTEGER) END) AS n_hi_from,
        (CAST(end_lo > CAST($init AS DATE) AS INTEGER)
             + CAST(end_lo > CAST($current AS DATE) AS INTEGER)
             + CASE WHEN end_lo <= CAST($first_month AS DATE) THEN 0
                    WHEN end_lo > (SELECT last_month FROM span) THEN CAST($months AS INTEGER)
                    ELSE CAST(date_diff('month', CAST($first_month AS DATE), end_lo) AS INTEGER)
                         + CAST(day(end_lo) > 1 AS INTEGER) END) AS n_end_lo,
        (CAST(end_hi > CAST($init AS DATE) AS INTEGER)
             + CAST(end_hi > CAST($current AS DATE) AS INTEGER)
             + CASE WHEN end_hi <= CAST($first_month AS DATE) THEN 0
                    WHEN end_hi > (SELECT last_month FROM span) THEN CAST($months AS INTEGER)
                    ELSE CAST(date_diff('month', CAST($first_month AS DATE), end_hi) AS INTEGER)
                         + CAST(day(end_hi) > 1 AS INTEGER) END) AS n_end_hi
    FROM bounds
),
masked AS (
    -- the dates each statement is NOT_VALID (never) and VALID (valid) at, by the rules of
    -- classify.sql's `judged`: an event is valid from its point's end, not valid before its
    -- start; else not valid before the start or from the end's end, unknown with an unknown
    -- bound, valid from the start's end until the end's start
    SELECT
        *,
        CASE
            WHEN event AND point_snaktype = 'value'
                THEN coalesce(every & ~((CAST(1 AS UBIGINT) << n_hi_from) - 1), 0)
            WHEN event OR start_snaktype = 'somevalue' OR end_snaktype = 'somevalue' THEN 0
            ELSE every & ~never
                 & (CASE WHEN has_start
                         THEN coalesce(every & ~((CAST(1 AS UBIGINT) << n_hi_from) - 1), 0)
                         ELSE every END)
                 & (CASE WHEN has_end
                         THEN coalesce((CAST(1 AS UBIGINT) << n_end_lo) - 1, 0)
                         ELSE every END)
        END AS valid
    FROM (
        SELECT
            *,
            coalesce((CAST(1 AS UBIGINT) << n_lo_after) - 1, 0)
            | CASE WHEN NOT event AND end_snaktype = 'value'
                   THEN coalesce(every & ~((CAST(1 AS UBIGINT) << n_end_hi) - 1), 0)
                   ELSE 0 END AS never
        FROM (
            SELECT *, (CAST(1 AS UBIGINT) << (CAST($months AS INTEGER) + 2)) - 1 AS every
            FROM before
        )
    )
),
evaluated AS (
    -- merged items followed (subjects and item values); masks restricted to the dates this
    -- statement's snapshot is read for: v valid, u unknown, rd read, ns read and not
    -- series-like; point_lo kept for series-like statements; merged: the group's subject
    -- is a merge's target (its statements may come from several original subjects)
    SELECT
        e.view, coalesce(rs.target, e.subject) AS subject, e.subject AS subject0, e.pid,
        CASE WHEN e.value_type = 'wikibase-entityid' THEN coalesce(rv.target, e.value)
             ELSE e.value END AS value,
        CASE WHEN e.series_like THEN e.point_lo END AS point_lo,
        e.read_at & e.valid AS v,
        e.read_at & ~e.valid & ~e.never AS u,
        e.read_at AS rd,
        CASE WHEN e.series_like THEN CAST(0 AS UBIGINT) ELSE e.read_at END AS ns,
        coalesce(rs.target, e.subject) IN (SELECT target FROM resolved) AS merged
    FROM masked AS e
    LEFT JOIN resolved AS rs ON rs.qid = e.subject
    LEFT JOIN resolved AS rv ON e.value_type = 'wikibase-entityid' AND rv.qid = e.value
),
entries AS (
    -- one entry per (group, original subject, value): v where a statement that is not
    -- series-like is valid, the series-like ones as a list of (point in time, valid dates)
    SELECT
        view, subject, subject0, pid, value, merged,
        coalesce(bit_or(v) FILTER (point_lo IS NULL), 0) AS v,
        list({'p': point_lo, 'v': v}) FILTER (point_lo IS NOT NULL) AS points,
        bit_or(u) AS u, bit_or(rd) AS rd, bit_or(ns) AS ns
    FROM evaluated
    GROUP BY view, subject, subject0, pid, value, merged
),
grouped AS (
    -- an entry of a group no merge touches, without series-like statements, is a value
    -- whose mask is its dates in the sets: those are OR-ed here (pv: the dates the sets
    -- are not empty at, p_i_ne_n: whether I <> N, p_mismatch: the dates C <> I); the other
    -- entries (every entry of a merge's target) go into a list
    SELECT
        view, subject, pid, merged,
        min(subject0) = max(subject0) AS single,
        bit_or(u) AS gu, bit_or(rd) AS grd, bit_or(ns) AS gns,
        bit_or(v) FILTER (NOT merged AND points IS NULL) AS pv,
        bool_or(((v & 1) <> 0) <> ((v >> (CAST($months AS INTEGER) + 1)) & 1 <> 0))
            FILTER (NOT merged AND points IS NULL) AS p_i_ne_n,
        bit_or(xor(v, CASE WHEN v & 1 <> 0 THEN ~CAST(0 AS UBIGINT) ELSE 0 END))
            FILTER (NOT merged AND points IS NULL) AS p_mismatch,
        list({'value': value, 'subject0': subject0, 'v': v, 'points': points,
              'rd': rd, 'ns': ns}) FILTER (merged OR points IS NOT NULL) AS vals
    FROM entries
    GROUP BY view, subject, pid, merged
),
weighed AS (
    -- the listed entries: at a date where every statement of an original subject read
    -- there is series-like (s: read, and no statement that is not series-like read), a
    -- series-like statement counts only if no statement of that subject with a later point
    -- in time is valid there. With one original subject an entry is a value; with several, a
    -- value counts where any of its entries does (and, as in classify.sql, a NULL value is
    -- left out). CASE evaluates a branch for its own rows alone: the lambdas run for the
    -- listed groups only.
    SELECT
        view, subject, pid, gu, grd, pv, p_i_ne_n, p_mismatch,
        CASE
            WHEN vals IS NULL THEN NULL
            WHEN single THEN list_transform(vals, lambda x:
                x.v | coalesce(list_bit_or(list_transform(x.points, lambda q:
                    q.v & ~((grd & ~gns) & coalesce(list_bit_or(flatten(list_transform(
                        list_filter(vals, lambda y: y.points IS NOT NULL),
                        lambda y: list_transform(
                            list_filter(y.points, lambda r: r.p > q.p), lambda r: r.v)))), 0))
                )), 0))
            ELSE list_transform(list_distinct(list_transform(vals, lambda x: x.value)), lambda w:
                list_bit_or(list_transform(list_filter(vals, lambda x: x.value = w), lambda x:
                    x.v | coalesce(list_bit_or(list_transform(x.points, lambda q:
                        q.v & ~(
                            list_bit_or(list_transform(
                                list_filter(vals, lambda y: y.subject0 = x.subject0),
                                lambda y: y.rd))
                            & ~list_bit_or(list_transform(
                                list_filter(vals, lambda y: y.subject0 = x.subject0),
                                lambda y: y.ns))
                            & coalesce(list_bit_or(flatten(list_transform(
                                list_filter(vals, lambda y: y.subject0 = x.subject0
                                                            AND y.points IS NOT NULL),
                                lambda y: list_transform(
                                    list_filter(y.points, lambda r: r.p > q.p),
                                    lambda r: r.v)))), 0)
                        ))), 0)
                )))
        END AS sets
    FROM grouped
),
counted AS (
    -- per group: gv its values' dates OR-ed (bit 0: I is not empty, bit $months + 1: N is not
    -- empty, a month's bit: C is not empty), i_ne_n whether I <> N, mismatch the dates
    -- whose C <> I, gu the dates some statement is UNKNOWN at, grd the dates it is read at
    SELECT
        view, subject, pid, gu, grd,
        coalesce(pv, 0) | coalesce(list_bit_or(sets), 0) AS gv,
        coalesce(p_i_ne_n, false) OR coalesce(list_bool_or(list_transform(sets, lambda e:
            ((e & 1) <> 0) <> ((e >> (CAST($months AS INTEGER) + 1)) & 1 <> 0))), false)
            AS i_ne_n,
        coalesce(p_mismatch, 0) | coalesce(list_bit_or(list_transform(sets, lambda e:
            xor(e, CASE WHEN e & 1 <> 0 THEN ~CAST(0 AS UBIGINT) ELSE 0 END))), 0) AS mismatch
    FROM weighed
),
uncovered AS (
    -- the dates whose subset snapshot does not list the group's subject
    SELECT g.view, g.subject, bit_or(sr.read_at) AS nc
    FROM (SELECT DISTINCT view, subject FROM counted) AS g
    JOIN subset_reads AS sr ON sr.view = g.view
    WHERE NOT EXISTS (
        SELECT 1 FROM covered AS c WHERE c.snapshot = sr.snapshot AND c.subject = g.subject
    )
    GROUP BY g.view, g.subject
),
spans AS (
    -- per group, masks of months: present (a statement read for init, the month or
    -- current), not covered, ambiguous, and the rest, classified by the sets
    SELECT
        *,
        months & ~nc & ~amb AS rest
    FROM (
        SELECT
            c.*, m.months, m.ends,
            CASE WHEN coalesce(u.nc, 0) & m.ends <> 0 THEN m.months
                 ELSE coalesce(u.nc, 0) & m.months END
              & CASE WHEN c.grd & m.ends <> 0 THEN m.months ELSE c.grd & m.months END AS nc,
            CASE WHEN c.gu & m.ends <> 0 THEN m.months ELSE c.gu & m.months END
              & ~(CASE WHEN coalesce(u.nc, 0) & m.ends <> 0 THEN m.months
                       ELSE coalesce(u.nc, 0) & m.months END
                  & CASE WHEN c.grd & m.ends <> 0 THEN m.months ELSE c.grd & m.months END)
                AS amb,
            c.gv & 1 <> 0 AS has_i,
            c.gv & m.ends & ~CAST(1 AS UBIGINT) <> 0 AS has_n
        FROM counted AS c
        CROSS JOIN (
            SELECT
                ((CAST(1 AS UBIGINT) << (CAST($months AS INTEGER) + 1)) - 2) AS months,
                (CAST(1 AS UBIGINT) << (CAST($months AS INTEGER) + 1)) | 1 AS ends
        ) AS m
        LEFT JOIN uncovered AS u ON u.view = c.view AND u.subject = c.subject
    )
),
levels AS (
    -- the rules in order: stable (I = C = N, not empty), retracted (N empty, I or C not),
    -- evolved (I not empty), uncharted (C empty, N not), recent (C not empty)
    SELECT
        nc, amb,
        CASE WHEN has_i AND has_n AND NOT i_ne_n THEN rest & ~mismatch ELSE 0 END AS stable,
        CASE WHEN has_i AND has_n AND i_ne_n THEN rest
             WHEN has_i AND has_n THEN rest & mismatch ELSE 0 END AS evolved,
        CASE WHEN has_n THEN 0 WHEN has_i THEN rest ELSE rest & gv END AS retracted,
        CASE WHEN NOT has_i AND has_n THEN rest & ~gv ELSE 0 END AS uncharted,
        CASE WHEN NOT has_i AND has_n THEN rest & gv ELSE 0 END AS recent
    FROM spans
),
kinds AS (
    -- groups with the same masks counted together (few kinds), then spread over the months
    SELECT
        unnest([
            {'level': 'not_covered', 'read_at': nc}, {'level': 'ambiguous', 'read_at': amb},
            {'level': 'stable', 'read_at': stable}, {'level': 'evolved', 'read_at': evolved},
            {'level': 'uncharted', 'read_at': uncharted}, {'level': 'recent', 'read_at': recent},
            {'level': 'retracted', 'read_at': retracted}
        ]) AS k,
        groups
    FROM (
        SELECT nc, amb, stable, evolved, uncharted, recent, retracted, count(*) AS groups
        FROM levels
        GROUP BY ALL
    )
)
SELECT m.month, k.level, sum(groups) AS groups
FROM kinds
CROSS JOIN (SELECT unnest(range(1, CAST($months AS INTEGER) + 1)) AS month) AS m
WHERE (k.read_at >> m.month) & 1 = 1
GROUP BY m.month, k.level
ORDER BY m.month, k.level;
