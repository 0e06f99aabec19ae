-- name: classify
-- purpose: Classify every (subject, pid) group for an LLM knowledge cutoff: level (stable,
--          evolved, uncharted, recent, retracted, ambiguous), change kind, latest / outdated /
--          all answers, the snapshots read, and in mode 'both' the level of each view and the
--          `backfilled` flag. Exact semantics: docs/classification.md (DESIGN.md §3-4).
--          Reads the views `snapshots(name, date)`, `statements(snapshot, subject, pid, rank,
--          value, value_type, time_*, start_*, end_*, point_*)` and
--          `entities(snapshot, qid, redirect_to)`.
-- params: $init, $cutoff, $current (DATE, init < cutoff < current);
--         $mode ('record' | 'valid' | 'both').
WITH
views AS (
    SELECT unnest(CASE WHEN $mode = 'both' THEN ['record', 'valid'] ELSE [$mode] END) AS view
),
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
    SELECT v.view, d.role, d.day, (
        SELECT s.name FROM snapshots AS s
        WHERE s.date <= (CASE WHEN v.view = 'valid' THEN CAST($current AS DATE) ELSE d.day END)
        ORDER BY s.date DESC, s.name DESC
        LIMIT 1
    ) AS snapshot
    FROM views AS v CROSS JOIN dates AS d
),
known AS (
    -- entity rows of the snapshots up to `current`
    SELECT e.qid, e.redirect_to, s.date, s.name
    FROM entities AS e
    JOIN snapshots AS s ON s.name = e.snapshot
    WHERE s.date <= CAST($current AS DATE)
),
redirects AS (
    -- a merged item: its row in the latest snapshot that has one is a redirect
    SELECT qid, redirect_to AS target
    FROM (
        SELECT qid, redirect_to FROM known
        WHERE qid IN (SELECT qid FROM known WHERE redirect_to IS NOT NULL)
        QUALIFY row_number() OVER (PARTITION BY qid ORDER BY date DESC, name DESC) = 1
    )
    WHERE redirect_to IS NOT NULL
),
resolved AS (
    -- follow at most two redirects (bots repair longer chains)
    SELECT r1.qid, coalesce(r2.target, r1.target) AS target
    FROM redirects AS r1
    LEFT JOIN redirects AS r2 ON r2.qid = r1.target
),
snapshot_days AS (
    SELECT date, lag(date) OVER (ORDER BY date) AS previous
    FROM (SELECT DISTINCT date FROM snapshots WHERE date <= CAST($current AS DATE))
),
created AS (
    -- valid time: an item first seen (itself or an item merged into it) after the earliest
    -- snapshot was created after the snapshot before its first one, at the latest on it
    SELECT f.qid, d.previous + 1 AS lo, d.date AS hi
    FROM (
        SELECT coalesce(rs.target, k.qid) AS qid, min(k.date) AS first_date
        FROM known AS k
        LEFT JOIN resolved AS rs ON rs.qid = k.qid
        WHERE k.redirect_to IS NULL AND $mode <> 'record'
        GROUP BY ALL
    ) AS f
    JOIN snapshot_days AS d ON d.date = f.first_date AND d.previous IS NOT NULL
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
      AND st.snapshot IN (SELECT snapshot FROM reads WHERE view = 'valid')
    GROUP BY ALL
),
candidates AS (
    SELECT
        r.view, r.role, r.day, st.subject, coalesce(rs.target, st.subject) AS item,
        st.pid, st.value, st.rank, st.value_type,
        coalesce(st.start_snaktype IN ('value', 'somevalue'), false) AS has_start,
        coalesce(st.end_snaktype IN ('value', 'somevalue'), false) AS has_end,
        coalesce(st.point_snaktype IN ('value', 'somevalue'), false) AS has_point,
        st.start_snaktype, st.start_lo, st.start_hi,
        st.end_snaktype, st.end_lo, st.end_hi,
        st.point_snaktype, st.point_lo, st.point_hi,
        CASE WHEN im.lo IS NOT NULL THEN im.lo ELSE cr.lo END AS implied_lo,
        CASE WHEN im.lo IS NOT NULL THEN im.hi ELSE cr.hi END AS implied_hi
    FROM reads AS r
    JOIN statements AS st ON st.snapshot = r.snapshot
    LEFT JOIN implied AS im
        ON r.view = 'valid' AND im.snapshot = r.snapshot AND im.subject = st.subject
       AND im.kind = (CASE WHEN st.pid IN ('P509', 'P1196') THEN 'death' ELSE 'existence' END)
    LEFT JOIN resolved AS rs ON rs.qid = st.subject
    LEFT JOIN created AS cr ON r.view = 'valid' AND cr.qid = coalesce(rs.target, st.subject)
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
        view, role, subject, item, pid, value, value_type, rank, point_lo,
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
    -- a measurement series keeps only its newest valid figure(s); statements count in the
    -- group of the item their subject was merged into (`item`), with item values followed
    SELECT
        e.view, e.role, e.item AS subject, e.pid,
        CASE WHEN e.value_type = 'wikibase-entityid' THEN coalesce(rv.target, e.value)
             ELSE e.value END AS value,
        e.rank,
        CASE
            WHEN e.validity = 'valid' AND e.is_series AND e.point_lo <> e.newest THEN 'superseded'
            ELSE e.validity
        END AS validity
    FROM (
        SELECT
            *,
            coalesce(bool_and(series_like) OVER (PARTITION BY view, role, subject, pid), false)
                AS is_series,
            max(CASE WHEN validity = 'valid' THEN point_lo END)
                OVER (PARTITION BY view, role, subject, pid) AS newest
        FROM judged
    ) AS e
    LEFT JOIN resolved AS rv ON e.value_type = 'wikibase-entityid' AND rv.qid = e.value
),
per_value AS (
    SELECT
        view, subject, pid, value,
        bool_or(role = 'init' AND validity = 'valid') AS in_i,
        bool_or(role = 'cutoff' AND validity = 'valid') AS in_c,
        bool_or(role = 'current' AND validity = 'valid') AS in_n
    FROM evaluated
    GROUP BY view, subject, pid, value
),
unknowns AS (
    SELECT
        view, subject, pid,
        CASE
            WHEN bool_or(role = 'init' AND validity = 'unknown') THEN 'unknown at init'
            WHEN bool_or(role = 'cutoff' AND validity = 'unknown') THEN 'unknown at cutoff'
            WHEN bool_or(role = 'current' AND validity = 'unknown') THEN 'unknown at current'
        END AS ambiguous_reason
    FROM evaluated
    GROUP BY view, subject, pid
),
best AS (
    -- latest answers: N's values carried by the best rank present among them
    SELECT view, subject, pid, list(DISTINCT value ORDER BY value) AS latest
    FROM (
        SELECT view, subject, pid, value, rank,
               min(CASE WHEN rank = 'preferred' THEN 0 ELSE 1 END)
                   OVER (PARTITION BY view, subject, pid) AS best
        FROM evaluated
        WHERE role = 'current' AND validity = 'valid'
    )
    WHERE (CASE WHEN rank = 'preferred' THEN 0 ELSE 1 END) = best
    GROUP BY view, subject, pid
),
sizes AS (
    SELECT
        view, subject, pid,
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
    GROUP BY view, subject, pid
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
    JOIN unknowns AS u USING (view, subject, pid)
),
per_view AS (
    SELECT
        l.view, l.subject, l.pid, l.level,
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
        CASE WHEN l.level = 'ambiguous' THEN [] ELSE coalesce(l.all_values, []) END
            AS all_answers,
        l.ambiguous_reason
    FROM levels AS l
    LEFT JOIN best AS b USING (view, subject, pid)
    WHERE l.level IS NOT NULL
),
backfill AS (
    -- mode 'both': a value valid before the cutoff (at init or at the cutoff, by the latest
    -- snapshot) that the snapshots read for init and for the cutoff did not record
    SELECT subject, pid, bool_or(valid_before AND NOT recorded_before) AS backfilled
    FROM (
        SELECT
            subject, pid, value,
            bool_or(view = 'valid' AND (in_i OR in_c)) AS valid_before,
            bool_or(view = 'record' AND (in_i OR in_c)) AS recorded_before
        FROM per_value
        WHERE $mode = 'both'
        GROUP BY subject, pid, value
    )
    GROUP BY subject, pid
),
paired AS (
    -- mode 'both': a group keeps its level when both views give the same level and change
    -- kind (answers as recorded); otherwise it is ambiguous and the reason says why
    SELECT
        coalesce(r.subject, v.subject) AS subject,
        coalesce(r.pid, v.pid) AS pid,
        r.level IS DISTINCT FROM v.level OR r.change_kind IS DISTINCT FROM v.change_kind
            AS disagree,
        r.level AS record_level, v.level AS valid_level,
        r.change_kind, r.changed_after_cutoff, r.latest, r.outdated, r.all_answers,
        r.ambiguous_reason,
        'record and valid time disagree: record '
            || coalesce(r.level || coalesce('/' || r.change_kind, '')
                        || coalesce(' (' || r.ambiguous_reason || ')', ''), 'nothing')
            || ', valid '
            || coalesce(v.level || coalesce('/' || v.change_kind, '')
                        || coalesce(' (' || v.ambiguous_reason || ')', ''), 'nothing')
            AS disagreement
    FROM (SELECT * FROM per_view WHERE view = 'record' AND $mode = 'both') AS r
    FULL JOIN (SELECT * FROM per_view WHERE view = 'valid' AND $mode = 'both') AS v
        ON v.subject = r.subject AND v.pid = r.pid
),
combined AS (
    SELECT
        subject, pid, level, change_kind, changed_after_cutoff, latest, outdated,
        all_answers, ambiguous_reason,
        CASE WHEN view = 'record' THEN level END AS record_level,
        CASE WHEN view = 'valid' THEN level END AS valid_level,
        CAST(NULL AS BOOLEAN) AS backfilled
    FROM per_view
    WHERE $mode <> 'both'
    UNION ALL
    SELECT
        p.subject, p.pid,
        CASE WHEN p.disagree THEN 'ambiguous' ELSE p.record_level END,
        CASE WHEN NOT p.disagree THEN p.change_kind END,
        CASE WHEN NOT p.disagree THEN p.changed_after_cutoff END,
        CASE WHEN p.disagree THEN [] ELSE p.latest END,
        CASE WHEN p.disagree THEN [] ELSE p.outdated END,
        CASE WHEN p.disagree THEN [] ELSE p.all_answers END,
        CASE WHEN p.disagree THEN p.disagreement ELSE p.ambiguous_reason END,
        p.record_level, p.valid_level,
        coalesce(bf.backfilled, false)
    FROM paired AS p
    LEFT JOIN backfill AS bf USING (subject, pid)
),
read_names AS (
    -- the snapshots that decided the sets (mode 'both': those of record time)
    SELECT
        max(snapshot) FILTER (role = 'init') AS init_snapshot,
        max(snapshot) FILTER (role = 'cutoff') AS cutoff_snapshot,
        max(snapshot) FILTER (role = 'current') AS current_snapshot
    FROM reads
    WHERE view = (CASE WHEN $mode = 'valid' THEN 'valid' ELSE 'record' END)
)
SELECT c.*, n.init_snapshot, n.cutoff_snapshot, n.current_snapshot
FROM combined AS c
CROSS JOIN read_names AS n
ORDER BY c.subject, c.pid;
