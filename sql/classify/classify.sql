-- name: classify
-- purpose: Classify every (subject, pid) group for an LLM knowledge cutoff: level
--          (not_covered, stable, evolved, uncharted, recent, retracted, ambiguous), change
--          kind, latest / outdated / all answers, the snapshots read and each date's distance
--          from its snapshot, the subset snapshots that do not cover a not_covered group's
--          subject, and in mode 'both' the level of each view and the `backfilled` flag.
--          Exact semantics: docs/classification.md.
--          Reads the views `snapshots(name, date, coverage)`, `statements(snapshot, subject,
--          pid, rank, value, value_type, time_*, start_*, end_*, point_*)`,
--          `entities(snapshot, qid, redirect_to)`, `entity_redirects(snapshot, qid,
--          redirect_to)` (sql/catalog/entity_redirects_view.sql) and `coverage(snapshot, qid)`,
--          the macro `date_reads` (sql/dates/date_reads.sql) and the rules it shares with
--          sql/staleness/curve.sql, the macros kgdiff_merge_targets, kgdiff_part_statements,
--          kgdiff_created, kgdiff_implied and kgdiff_covered (sql/classify/<name>.sql).
--          Rows come in no particular order (sorting millions of groups costs a tenth of the
--          run; exports sort).
--          How it runs: each snapshot read is scanned and judged once (one validity per date);
--          one aggregation per (group, value) folds the statements into a bit mask; a group
--          every value of which is valid at the three dates (no unknown validity, no
--          measurement series, one original subject; outside mode 'both' and subset
--          snapshots) is stable, its answers its values (`plain_view`: 83 % of the groups of
--          the ladder's 3 × 25 M store, a part's CPU 16.5 → 11.5 s); for the others one
--          aggregation per group collects the values, and sets, sizes and answers come from
--          list lambdas.
--          A large store is classified part by part (kgdiff/temporal/chunks.py): subject
--          ranges without merged items ($part = 'range'), then every group touched by a merge
--          ($part = 'merged'); the parts together are exactly $part = 'all'. Run it with
--          SET disabled_optimizers = 'build_side_probe_side' on large stores: the estimates
--          through the views are poor and DuckDB would build its hash tables on statements.
-- params: $init, $cutoff, $current (DATE, init < cutoff < current; equal dates give the
--         object sets at one date, see sql/facts/facts_at.sql);
--         $mode ('record' | 'valid' | 'both');
--         $as_of (DATE or NULL = $current): the latest snapshot date valid time and merges
--         read (the catalog macro's default: NULL);
--         $part ('all' | 'range' | 'merged'); $lo, $hi (VARCHAR: lo <= subject < hi, 'range');
--         $max_gap (INTEGER days), $allow_gap (BOOLEAN): dates the snapshots cannot answer
--         (sql/dates/date_reads.sql) are an error unless $allow_gap (macro defaults 31, false).
WITH
reads AS (
    -- the snapshot each date reads (record time: the one at or before it; valid time: the
    -- one at or before `current`, or $as_of, for all three dates) and how far it is; dates
    -- the snapshots cannot answer are an error unless $allow_gap (sql/dates/date_reads.sql)
    SELECT view, role, day, snapshot, snapshot_date, coverage, gap_days
    FROM date_reads(
        [CAST($init AS DATE), CAST($cutoff AS DATE), CAST($current AS DATE)],
        ['init', 'cutoff', 'current'],
        $mode,
        as_of := coalesce(CAST($as_of AS DATE), CAST($current AS DATE)),
        max_gap := $max_gap,
        allow_gap := $allow_gap
    )
),
reads_by_snapshot AS (
    -- one row per (view, snapshot read): the day each role evaluates it at (NULL: not read
    -- for that role), so a snapshot read for several dates is scanned and judged once
    SELECT view, snapshot,
           max(day) FILTER (role = 'init') AS day_i,
           max(day) FILTER (role = 'cutoff') AS day_c,
           max(day) FILTER (role = 'current') AS day_n
    FROM reads
    WHERE snapshot IS NOT NULL
    GROUP BY view, snapshot
),
resolved AS (
    -- the merges followed: merged items and their targets (sql/classify/merge_targets.sql)
    SELECT qid, target
    FROM kgdiff_merge_targets(coalesce(CAST($as_of AS DATE), CAST($current AS DATE)))
),
merged_subjects AS (
    -- every subject whose group a merge touches: merged items and their targets
    SELECT qid FROM resolved UNION SELECT target FROM resolved
),
chunk_statements AS (
    -- the statements of this part (sql/classify/part_statements.sql)
    SELECT * FROM kgdiff_part_statements($part, $lo, $hi, 'merged_subjects')
),
created AS (
    -- valid time: when an item was created (sql/classify/created.sql)
    -- (columns qualified: in the catalog macro `lo` and `hi` are parameters)
    SELECT c.qid, c.lo, c.hi
    FROM kgdiff_created(
        $mode, coalesce(CAST($as_of AS DATE), CAST($current AS DATE)), $part, $lo, $hi,
        'merged_subjects', 'resolved'
    ) AS c
),
implied AS (
    -- valid time: the start a statement without temporal qualifiers implicitly has
    -- (sql/classify/implied.sql)
    SELECT im.snapshot, im.subject, im.kind, im.lo, im.hi
    FROM kgdiff_implied($part, $lo, $hi, 'merged_subjects', 'reads') AS im
),
subset_reads AS (
    -- the subset snapshots read (coverage 'subset'): they know only the entities they list
    SELECT DISTINCT view, snapshot, snapshot_date FROM reads WHERE coverage = 'subset'
),
covered AS (
    -- the subjects each subset snapshot read knows about, for the subjects of this part
    -- (sql/classify/covered.sql)
    SELECT snapshot, subject
    FROM kgdiff_covered($part, $lo, $hi, 'merged_subjects', 'resolved', 'subset_reads')
),
candidates AS (
    SELECT
        r.view, r.day_i, r.day_c, r.day_n, st.subject, st.pid, st.value, st.rank, st.value_type,
        st.datatype, st.time_lo, st.time_hi,
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
    -- an implied start replaces the missing one (columns listed: Spark SQL has no REPLACE)
    SELECT
        view, day_i, day_c, day_n, subject, pid, value, rank, value_type, datatype, time_lo,
        time_hi, has_start OR implied AS has_start, has_end, has_point,
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
judged AS (
    -- validity at each date whose snapshot this row belongs to (NULL: not read for it)
    SELECT
        view, subject, pid, value, value_type, datatype, time_lo, time_hi, rank, point_lo,
        coalesce(value_type = 'quantity', false) AND has_point AND NOT has_start AND NOT has_end
            AS series_like,
        CASE
            WHEN day_i IS NULL THEN NULL
            WHEN NOT has_start AND NOT has_end AND has_point THEN
                CASE
                    WHEN point_snaktype = 'value' AND point_hi <= day_i THEN 1
                    WHEN point_snaktype = 'value' AND point_lo > day_i THEN 0
                    ELSE 2
                END
            WHEN (start_snaktype = 'value' AND start_lo > day_i)
                 OR (end_snaktype = 'value' AND end_hi <= day_i) THEN 0
            WHEN start_snaktype = 'somevalue' OR end_snaktype = 'somevalue' THEN 2
            WHEN (NOT has_start OR start_hi <= day_i)
                 AND (NOT has_end OR end_lo > day_i) THEN 1
            ELSE 2
        END AS v_i,
        CASE
            WHEN day_c IS NULL THEN NULL
            WHEN NOT has_start AND NOT has_end AND has_point THEN
                CASE
                    WHEN point_snaktype = 'value' AND point_hi <= day_c THEN 1
                    WHEN point_snaktype = 'value' AND point_lo > day_c THEN 0
                    ELSE 2
                END
            WHEN (start_snaktype = 'value' AND start_lo > day_c)
                 OR (end_snaktype = 'value' AND end_hi <= day_c) THEN 0
            WHEN start_snaktype = 'somevalue' OR end_snaktype = 'somevalue' THEN 2
            WHEN (NOT has_start OR start_hi <= day_c)
                 AND (NOT has_end OR end_lo > day_c) THEN 1
            ELSE 2
        END AS v_c,
        CASE
            WHEN day_n IS NULL THEN NULL
            WHEN NOT has_start AND NOT has_end AND has_point THEN
                CASE
                    WHEN point_snaktype = 'value' AND point_hi <= day_n THEN 1
                    WHEN point_snaktype = 'value' AND point_lo > day_n THEN 0
                    ELSE 2
                END
            WHEN (start_snaktype = 'value' AND start_lo > day_n)
                 OR (end_snaktype = 'value' AND end_hi <= day_n) THEN 0
            WHEN start_snaktype = 'somevalue' OR end_snaktype = 'somevalue' THEN 2
            WHEN (NOT has_start OR start_hi <= day_n)
                 AND (NOT has_end OR end_lo > day_n) THEN 1
            ELSE 2
        END AS v_n
    FROM bounded
),
evaluated AS (
    -- merged items are followed, for subjects and for item values; one bit mask per row:
    -- 1/2/4 valid at init/cutoff/current, 8/16/32 unknown there, 64 valid at current with
    -- preferred rank, 128/256/512 read there and not series-like, 1024/2048/4096 read there;
    -- what a change's nature compares: 8192 an external identifier, 16384/32768/65536/
    -- 131072/262144 a time, quantity, coordinate, monolingual text, string (and a time's
    -- days); 524288 series-like
    SELECT
        e.view, coalesce(rs.target, e.subject) AS subject, e.subject AS subject0, e.pid,
        CASE WHEN e.value_type = 'wikibase-entityid' THEN coalesce(rv.target, e.value)
             ELSE e.value END AS value,
        CASE WHEN e.series_like THEN e.point_lo END AS point_lo,
        (CASE e.v_i WHEN 1 THEN 1 WHEN 2 THEN 8 ELSE 0 END)
        | (CASE e.v_c WHEN 1 THEN 2 WHEN 2 THEN 16 ELSE 0 END)
        | (CASE e.v_n WHEN 1 THEN (CASE WHEN e.rank = 'preferred' THEN 68 ELSE 4 END)
                      WHEN 2 THEN 32 ELSE 0 END)
        | (CASE WHEN e.v_i IS NULL THEN 0 WHEN e.series_like THEN 1024 ELSE 1152 END)
        | (CASE WHEN e.v_c IS NULL THEN 0 WHEN e.series_like THEN 2048 ELSE 2304 END)
        | (CASE WHEN e.v_n IS NULL THEN 0 WHEN e.series_like THEN 4096 ELSE 4608 END)
        | (CASE WHEN e.datatype = 'external-id' THEN 8192 ELSE 0 END)
        | (CASE e.value_type WHEN 'time' THEN 16384 WHEN 'quantity' THEN 32768
                             WHEN 'globecoordinate' THEN 65536 WHEN 'monolingualtext' THEN 131072
                             WHEN 'string' THEN 262144 ELSE 0 END)
        | (CASE WHEN e.series_like THEN 524288 ELSE 0 END)
            AS bits,
        CASE WHEN e.value_type = 'time' THEN e.time_lo END AS time_lo,
        CASE WHEN e.value_type = 'time' THEN e.time_hi END AS time_hi
    FROM judged AS e
    LEFT JOIN resolved AS rs ON rs.qid = e.subject
    LEFT JOIN resolved AS rv ON e.value_type = 'wikibase-entityid' AND rv.qid = e.value
),
per_value AS (
    SELECT
        view, subject, subject0, pid, value,
        bit_or(bits) AS bits,
        max(point_lo) FILTER (bits & 1 <> 0) AS p_i,
        max(point_lo) FILTER (bits & 2 <> 0) AS p_c,
        max(point_lo) FILTER (bits & 4 <> 0) AS p_n,
        max(point_lo) FILTER (bits & 64 <> 0) AS pp_n,
        min(time_lo) AS t_lo,
        max(time_hi) AS t_hi
    FROM evaluated
    GROUP BY view, subject, subject0, pid, value
),
plain_allowed AS (
    -- whether a group may be found stable from its values alone: not in mode 'both' (whose
    -- backfill compares the views' flags value by value) nor with a subset snapshot read
    -- (whose coverage decides first); one row
    SELECT $mode <> 'both' AND count(*) = 0 AS allowed FROM subset_reads
),
group_flags AS (
    -- plain: every value valid at the three dates with nothing unknown (8/16/32) and no
    -- series-like statement (524288: the series rule may drop a figure), of one original
    -- subject: the group is stable whatever the rest, which it skips
    SELECT
        v.view, v.subject, v.pid,
        min(v.subject0) = max(v.subject0) AND bit_and(v.bits) & 7 = 7
            AND bit_or(v.bits) & 524344 = 0 AS plain
    FROM per_value AS v
    GROUP BY v.view, v.subject, v.pid
),
flagged_values AS (
    SELECT v.*, g.plain AND a.allowed AS plain
    FROM per_value AS v
    JOIN group_flags AS g ON g.view = v.view AND g.subject = v.subject AND g.pid = v.pid
    CROSS JOIN plain_allowed AS a
),
plain_view AS (
    -- the plain groups: stable, their latest answers the values of the best rank at current,
    -- all their values the answers (as `sizes` and `per_view` give them for such a group)
    SELECT
        view, subject, pid, 'stable' AS level,
        CAST(NULL AS VARCHAR) AS change_kind,
        CAST(NULL AS BOOLEAN) AS changed_after_cutoff,
        list_sort(CASE WHEN bool_or(bits & 64 <> 0) THEN list(value) FILTER (bits & 64 <> 0)
                       ELSE list(value) END) AS latest,
        CAST([] AS VARCHAR[]) AS outdated,
        list_sort(list(value)) AS all_answers,
        CAST(NULL AS VARCHAR) AS ambiguous_reason,
        CAST(NULL AS VARCHAR[]) AS not_covered_in,
        CAST(NULL AS VARCHAR) AS change_nature
    FROM flagged_values
    WHERE plain
    GROUP BY view, subject, pid
),
grouped AS (
    -- the other groups, their values collected for the lambdas
    SELECT
        view, subject, pid,
        list({'value': value, 'subject0': subject0, 'bits': bits,
               'p_i': p_i, 'p_c': p_c, 'p_n': p_n, 'pp_n': pp_n, 't_lo': t_lo, 't_hi': t_hi})
            AS vals,
        min(subject0) = max(subject0) AS single,
        bit_or(bits) AS gbits,
        max(p_i) AS newest_i,
        max(p_c) AS newest_c,
        max(p_n) AS newest_n
    FROM flagged_values
    WHERE NOT plain
    GROUP BY view, subject, pid
),
uncovered AS (
    -- groups whose subject a subset snapshot read for one of the dates does not list: that
    -- snapshot knows nothing of them (level not_covered, docs/classification.md, "Coverage")
    -- (ordered by sorting structs: Spark SQL's collect_list takes no ORDER BY)
    SELECT g.view, g.subject,
           list_transform(list_sort(list({'d': sr.snapshot_date, 's': sr.snapshot})),
                          lambda x: x.s) AS not_covered_in
    FROM (SELECT DISTINCT view, subject FROM grouped) AS g
    JOIN subset_reads AS sr ON sr.view = g.view
    WHERE NOT EXISTS (
        SELECT 1 FROM covered AS c WHERE c.snapshot = sr.snapshot AND c.subject = g.subject
    )
    GROUP BY g.view, g.subject
),
flagged AS (
    -- per value: in I, C, N (and preferred in N) after the series rule: a measurement series
    -- (every statement read for the date is series-like) keeps only its newest valid figure(s)
    SELECT
        view, subject, pid, gbits & 8192 <> 0 AS ids, gbits & 507904 AS kinds,
        CASE
            WHEN gbits & 8 <> 0 THEN 'unknown at init'
            WHEN gbits & 16 <> 0 THEN 'unknown at cutoff'
            WHEN gbits & 32 <> 0 THEN 'unknown at current'
        END AS ambiguous_reason,
        CASE WHEN single THEN list_transform(vals, lambda x: {
            'value': x.value,
            'i': x.bits & 1 <> 0 AND (gbits & 1152 <> 1024 OR x.p_i = newest_i),
            'c': x.bits & 2 <> 0 AND (gbits & 2304 <> 2048 OR x.p_c = newest_c),
            'n': x.bits & 4 <> 0 AND (gbits & 4608 <> 4096 OR x.p_n = newest_n),
            'pn': x.bits & 64 <> 0 AND (gbits & 4608 <> 4096 OR x.pp_n = newest_n),
            'k': x.bits & 507904, 't_lo': x.t_lo, 't_hi': x.t_hi
        })
        -- items merged into this subject: the series rule applies to each original subject's
        -- statements (the entries y with y.subject0 = x.subject0), and a value counts when
        -- any of its entries counts
        ELSE list_transform(list_distinct(list_transform(vals, lambda x: x.value)), lambda v: {
            'value': v,
            'i': coalesce(list_bool_or(list_transform(
                list_filter(vals, lambda x: x.value = v),
                lambda x: x.bits & 1 <> 0 AND (
                    list_bit_or(list_transform(
                        list_filter(vals, lambda y: y.subject0 = x.subject0), lambda y: y.bits
                    )) & 1152 <> 1024
                    OR x.p_i = list_max(list_transform(
                        list_filter(vals, lambda y: y.subject0 = x.subject0), lambda y: y.p_i
                    ))
                )
            )), false),
            'c': coalesce(list_bool_or(list_transform(
                list_filter(vals, lambda x: x.value = v),
                lambda x: x.bits & 2 <> 0 AND (
                    list_bit_or(list_transform(
                        list_filter(vals, lambda y: y.subject0 = x.subject0), lambda y: y.bits
                    )) & 2304 <> 2048
                    OR x.p_c = list_max(list_transform(
                        list_filter(vals, lambda y: y.subject0 = x.subject0), lambda y: y.p_c
                    ))
                )
            )), false),
            'n': coalesce(list_bool_or(list_transform(
                list_filter(vals, lambda x: x.value = v),
                lambda x: x.bits & 4 <> 0 AND (
                    list_bit_or(list_transform(
                        list_filter(vals, lambda y: y.subject0 = x.subject0), lambda y: y.bits
                    )) & 4608 <> 4096
                    OR x.p_n = list_max(list_transform(
                        list_filter(vals, lambda y: y.subject0 = x.subject0), lambda y: y.p_n
                    ))
                )
            )), false),
            'pn': coalesce(list_bool_or(list_transform(
                list_filter(vals, lambda x: x.value = v),
                lambda x: x.bits & 64 <> 0 AND (
                    list_bit_or(list_transform(
                        list_filter(vals, lambda y: y.subject0 = x.subject0), lambda y: y.bits
                    )) & 4608 <> 4096
                    OR x.pp_n = list_max(list_transform(
                        list_filter(vals, lambda y: y.subject0 = x.subject0), lambda y: y.p_n
                    ))
                )
            )), false),
            'k': list_bit_or(list_transform(
                list_filter(vals, lambda x: x.value = v), lambda x: x.bits)) & 507904,
            't_lo': list_min(list_transform(
                list_filter(vals, lambda x: x.value = v), lambda x: x.t_lo)),
            't_hi': list_max(list_transform(
                list_filter(vals, lambda x: x.value = v), lambda x: x.t_hi))
        })
        END AS f
    FROM grouped
),
sizes AS (
    SELECT
        view, subject, pid, ids, kinds, ambiguous_reason, f,
        array_length(list_filter(f, lambda x: x.i)) AS n_i,
        array_length(list_filter(f, lambda x: x.c)) AS n_c,
        array_length(list_filter(f, lambda x: x.n)) AS n_n,
        array_length(list_filter(f, lambda x: x.i AND x.c)) AS n_ic,
        array_length(list_filter(f, lambda x: x.i AND x.n)) AS n_in,
        array_length(list_filter(f, lambda x: x.c AND x.n)) AS n_cn,
        array_length(list_filter(f, lambda x: x.i AND x.c AND x.n)) AS n_icn,
        list_sort(list_transform(list_filter(f, lambda x: x.i OR x.c OR x.n),
                                 lambda x: x.value)) AS all_values,
        list_sort(list_transform(list_filter(f, lambda x: (x.i OR x.c) AND NOT x.n),
                                 lambda x: x.value)) AS gone,
        -- latest answers: N's values carried by the best rank present among them
        list_sort(list_transform(
            CASE WHEN array_length(list_filter(f, lambda x: x.n AND x.pn)) > 0
                 THEN list_filter(f, lambda x: x.n AND x.pn)
                 ELSE list_filter(f, lambda x: x.n) END,
            lambda x: x.value)) AS latest
    FROM flagged
),
levels AS (
    SELECT
        z.*,
        u.not_covered_in,
        CASE
            WHEN u.not_covered_in IS NOT NULL THEN 'not_covered'
            WHEN ambiguous_reason IS NOT NULL THEN 'ambiguous'
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
    LEFT JOIN uncovered AS u ON u.view = z.view AND u.subject = z.subject
),
natured AS (
    -- an evolved group's change nature (docs/classification.md, "Change nature"): each value's
    -- kind, then its normal form (two values with the same form are the same value written
    -- otherwise) and the forms of the values it refines (lies inside, more precise: a time of
    -- a finer precision within their days, a coordinate written with more decimals within
    -- half a unit of their last one); then each step (init -> cutoff, cutoff -> current):
    -- 0 nothing moved, 1 reformatted (the same forms on both sides), 2 refined (every form on
    -- one side only is refined by, or refines, one on the other side), 3 substantive; the
    -- group's nature is its greater step. Lambdas over the group's values, no join: Spark SQL
    -- would compute the classification again for each reference to a further CTE.
    SELECT
        *,
        CASE
            WHEN level <> 'evolved' THEN NULL
            -- items and unknown values only: each value is its own form, and the sets differ
            WHEN kinds = 0 THEN 'substantive'
            ELSE list_transform([list_transform(list_transform(f, lambda x: {
                'value': x.value, 'i': x.i, 'c': x.c, 'n': x.n, 't_lo': x.t_lo, 't_hi': x.t_hi,
                'kind': CASE
                    -- a time within a million years of now (its days are exact DATEs)
                    WHEN x.k = 16384 AND x.t_lo IS NOT NULL AND x.t_hi IS NOT NULL
                         AND regexp_matches(x.value,
                             '^[+-][0-9]{1,6}-[0-9]{2}-[0-9]{2}T[^|]*[|][0-9]{1,2}[|]') THEN 'time'
                    WHEN x.k = 32768 THEN 'quantity'
                    -- a coordinate of two decimal numbers (Python's repr, no exponent)
                    WHEN x.k = 65536 AND regexp_matches(
                        x.value, '^-?[0-9]+[.][0-9]+,-?[0-9]+[.][0-9]+,') THEN 'coordinate'
                    WHEN x.k = 131072 THEN 'text'
                    WHEN x.k = 262144
                         AND regexp_matches(x.value, '^[A-Za-z][A-Za-z0-9+.-]*://') THEN 'url'
                    WHEN x.k = 262144 AND ids THEN 'id'
                    WHEN x.k = 262144 THEN 'string'
                    ELSE 'other'
                END
            }), lambda x: {
                'i': x.i, 'c': x.c, 'n': x.n, 'kind': x.kind, 't_lo': x.t_lo, 't_hi': x.t_hi,
                'form': CASE x.kind
                    WHEN 'time' THEN 't|' || regexp_extract(x.value, '[|]([0-9]+)[|]', 1)
                        || '|' || CAST(x.t_lo AS VARCHAR) || '|' || CAST(x.t_hi AS VARCHAR)
                    -- no http/https, the host in lower case without www., no trailing slash
                    WHEN 'url' THEN 'u|'
                        || CASE WHEN lower(regexp_extract(x.value, '^([^:]*):', 1))
                                     IN ('http', 'https') THEN ''
                                ELSE lower(regexp_extract(x.value, '^([^:]*):', 1)) END
                        || '//' || regexp_replace(
                            lower(regexp_extract(x.value, '^[^:]*://([^/?#]*)', 1)), '^www[.]', '')
                        || regexp_replace(
                            regexp_extract(x.value, '(?s)^[^:]*://[^/?#]*(.*)$', 1), '/+$', '')
                    -- no whitespace or hyphens, lower case, a number without leading zeros
                    WHEN 'id' THEN list_transform(
                        [lower(regexp_replace(x.value, '[ \t\r\n\x{00A0}-]+', '', 'g'))],
                        lambda t: 'i|' || CASE WHEN regexp_matches(t, '^[0-9]+$')
                                               THEN coalesce(nullif(ltrim(t, '0'), ''), '0')
                                               ELSE t END)[1]
                    -- whitespace runs as one space, trimmed, lower case
                    WHEN 'string' THEN 's|' || lower(trim(
                        regexp_replace(x.value, '[ \t\r\n\x{00A0}]+', ' ', 'g')))
                    WHEN 'text' THEN 'm|' || lower(regexp_extract(x.value, '^([^:]*):', 1))
                        || ':' || lower(trim(regexp_replace(
                            regexp_extract(x.value, '(?s)^[^:]*:(.*)$', 1),
                            '[ \t\r\n\x{00A0}]+', ' ', 'g')))
                    -- a plain decimal amount without '+', leading or trailing zeros; the unit
                    WHEN 'quantity' THEN list_transform(
                        [regexp_extract(x.value, '^([^|]*)[|]', 1)],
                        lambda a: CASE
                            WHEN regexp_matches(a, '^[+-]?[0-9]+([.][0-9]+)?$') THEN 'q|'
                                || CASE WHEN a LIKE '-%' AND NOT regexp_matches(a, '^-[0.]+$')
                                        THEN '-' ELSE '' END
                                || coalesce(nullif(ltrim(regexp_extract(a, '([0-9]+)', 1), '0'),
                                                   ''), '0')
                                || coalesce('.' || nullif(rtrim(
                                       regexp_extract(a, '[.]([0-9]+)$', 1), '0'), ''), '')
                                || '|' || regexp_extract(x.value, '[|]([^|]*)$', 1)
                            ELSE 'v|' || x.value
                        END)[1]
                    ELSE 'v|' || x.value
                END,
                'precision': CASE WHEN x.kind = 'time'
                    THEN CAST(regexp_extract(x.value, '[|]([0-9]+)[|]', 1) AS INTEGER) END,
                'lat': CASE WHEN x.kind = 'coordinate'
                    THEN CAST(regexp_extract(x.value, '^([^,]*),', 1) AS DOUBLE) END,
                'lon': CASE WHEN x.kind = 'coordinate'
                    THEN CAST(regexp_extract(x.value, '^[^,]*,([^,]*),', 1) AS DOUBLE) END,
                'globe': CASE WHEN x.kind = 'coordinate'
                    THEN regexp_extract(x.value, ',([^,]*)$', 1) END,
                -- the decimals written (Python writes a whole number of degrees as 50.0)
                'lat_digits': CASE
                    WHEN x.kind <> 'coordinate' THEN NULL
                    WHEN regexp_matches(x.value, '^[^,]*[.]0,') THEN 0
                    ELSE length(regexp_extract(x.value, '^[^,]*[.]([0-9]*),', 1)) END,
                'lon_digits': CASE
                    WHEN x.kind <> 'coordinate' THEN NULL
                    WHEN regexp_matches(x.value, '^[^,]*,[^,]*[.]0,') THEN 0
                    ELSE length(regexp_extract(x.value, '^[^,]*,[^,]*[.]([0-9]*),', 1)) END
            })], lambda fs: list_transform([list_transform(fs, lambda x: {
                'i': x.i, 'c': x.c, 'n': x.n, 'form': x.form,
                -- the forms of the values x refines
                'coarser': CASE WHEN x.kind IN ('time', 'coordinate') THEN list_transform(
                    list_filter(fs, lambda y: coalesce(
                        (x.kind = 'time' AND y.kind = 'time' AND x.precision > y.precision
                         AND x.t_lo >= y.t_lo AND x.t_hi <= y.t_hi)
                        OR (x.kind = 'coordinate' AND y.kind = 'coordinate'
                            AND x.globe = y.globe AND x.lat_digits >= y.lat_digits
                            AND x.lon_digits >= y.lon_digits
                            AND x.lat_digits + x.lon_digits > y.lat_digits + y.lon_digits
                            AND abs(x.lat - y.lat) <= 0.5 * power(10, -y.lat_digits) + 0.000000001
                            AND abs(x.lon - y.lon) <= 0.5 * power(10, -y.lon_digits) + 0.000000001),
                        false)),
                    lambda y: y.form) ELSE [] END
            })], lambda rs: list_transform([{
                'at_i': list_transform(list_filter(rs, lambda y: y.i), lambda y: y.form),
                'at_c': list_transform(list_filter(rs, lambda y: y.c), lambda y: y.form),
                'at_n': list_transform(list_filter(rs, lambda y: y.n), lambda y: y.form)
            }], lambda g: CASE greatest(
                CASE
                    WHEN NOT coalesce(list_bool_or(list_transform(rs, lambda x: x.i <> x.c)),
                                      false) THEN 0
                    WHEN NOT coalesce(list_bool_or(list_transform(rs, lambda x:
                        (x.i AND NOT list_contains(g.at_c, x.form))
                        OR (x.c AND NOT list_contains(g.at_i, x.form)))), false) THEN 1
                    WHEN NOT coalesce(list_bool_or(list_transform(rs, lambda x:
                        (x.i AND NOT list_contains(g.at_c, x.form)
                         AND NOT coalesce(list_bool_or(list_transform(
                             rs, lambda y: y.c AND list_contains(y.coarser, x.form))), false))
                        OR (x.c AND NOT list_contains(g.at_i, x.form)
                            AND NOT coalesce(list_bool_or(list_transform(
                                x.coarser, lambda h: list_contains(g.at_i, h))), false)))),
                        false) THEN 2
                    ELSE 3
                END,
                CASE
                    WHEN NOT coalesce(list_bool_or(list_transform(rs, lambda x: x.c <> x.n)),
                                      false) THEN 0
                    WHEN NOT coalesce(list_bool_or(list_transform(rs, lambda x:
                        (x.c AND NOT list_contains(g.at_n, x.form))
                        OR (x.n AND NOT list_contains(g.at_c, x.form)))), false) THEN 1
                    WHEN NOT coalesce(list_bool_or(list_transform(rs, lambda x:
                        (x.c AND NOT list_contains(g.at_n, x.form)
                         AND NOT coalesce(list_bool_or(list_transform(
                             rs, lambda y: y.n AND list_contains(y.coarser, x.form))), false))
                        OR (x.n AND NOT list_contains(g.at_c, x.form)
                            AND NOT coalesce(list_bool_or(list_transform(
                                x.coarser, lambda h: list_contains(g.at_c, h))), false)))),
                        false) THEN 2
                    ELSE 3
                END
            ) WHEN 1 THEN 'reformatted' WHEN 2 THEN 'refined' ELSE 'substantive' END)[1])[1])[1]
        END AS change_nature
    FROM levels
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
        CASE WHEN l.level IN ('ambiguous', 'not_covered') THEN []
             ELSE coalesce(l.latest, []) END AS latest,
        CASE WHEN l.level = 'evolved' THEN coalesce(l.gone, []) ELSE [] END AS outdated,
        CASE WHEN l.level IN ('ambiguous', 'not_covered') THEN []
             ELSE coalesce(l.all_values, []) END AS all_answers,
        CASE WHEN l.level = 'ambiguous' THEN l.ambiguous_reason END AS ambiguous_reason,
        l.not_covered_in,
        l.change_nature
    FROM natured AS l
    WHERE l.level IS NOT NULL
    UNION ALL
    SELECT * FROM plain_view
),
backfill AS (
    -- mode 'both': a value valid before the cutoff (at init or at the cutoff, by the latest
    -- snapshot) that the snapshots read for init and for the cutoff did not record
    SELECT subject, pid, bool_or(valid_before AND NOT recorded_before) AS backfilled
    FROM (
        SELECT
            subject, pid, x.value,
            bool_or(view = 'valid' AND (x.i OR x.c)) AS valid_before,
            bool_or(view = 'record' AND (x.i OR x.c)) AS recorded_before
        FROM (SELECT view, subject, pid, unnest(f) AS x FROM sizes WHERE $mode = 'both')
        GROUP BY subject, pid, x.value
    )
    GROUP BY subject, pid
),
paired AS (
    -- mode 'both': a group keeps its level when both views give the same level and change
    -- kind (answers as recorded); otherwise it is ambiguous and the reason says why. A group
    -- not covered in either view is not covered (its sets cannot be compared).
    SELECT
        coalesce(r.subject, v.subject) AS subject,
        coalesce(r.pid, v.pid) AS pid,
        coalesce(r.not_covered_in, v.not_covered_in) AS not_covered_in,
        r.level IS DISTINCT FROM v.level OR r.change_kind IS DISTINCT FROM v.change_kind
            AS disagree,
        r.level AS record_level, v.level AS valid_level,
        r.change_kind, r.changed_after_cutoff, r.latest, r.outdated, r.all_answers,
        r.ambiguous_reason, r.change_nature,
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
        CAST(NULL AS BOOLEAN) AS backfilled,
        not_covered_in,
        change_nature
    FROM per_view
    WHERE $mode <> 'both'
    UNION ALL
    SELECT
        p.subject, p.pid,
        CASE WHEN p.not_covered_in IS NOT NULL THEN 'not_covered'
             WHEN p.disagree THEN 'ambiguous' ELSE p.record_level END,
        CASE WHEN NOT p.disagree THEN p.change_kind END,
        CASE WHEN NOT p.disagree THEN p.changed_after_cutoff END,
        CASE WHEN p.disagree OR p.not_covered_in IS NOT NULL THEN [] ELSE p.latest END,
        CASE WHEN p.disagree OR p.not_covered_in IS NOT NULL THEN [] ELSE p.outdated END,
        CASE WHEN p.disagree OR p.not_covered_in IS NOT NULL THEN [] ELSE p.all_answers END,
        CASE WHEN p.not_covered_in IS NOT NULL THEN NULL
             WHEN p.disagree THEN p.disagreement ELSE p.ambiguous_reason END,
        p.record_level, p.valid_level,
        coalesce(bf.backfilled, false),
        p.not_covered_in,
        CASE WHEN NOT p.disagree THEN p.change_nature END
    FROM paired AS p
    LEFT JOIN backfill AS bf USING (subject, pid)
),
read_names AS (
    -- the snapshots that decided the sets (mode 'both': those of record time) and how far
    -- each date is from its snapshot (days; negative: valid time reads a later snapshot)
    SELECT
        max(snapshot) FILTER (role = 'init') AS init_snapshot,
        max(snapshot) FILTER (role = 'cutoff') AS cutoff_snapshot,
        max(snapshot) FILTER (role = 'current') AS current_snapshot,
        max(gap_days) FILTER (role = 'init') AS init_gap_days,
        max(gap_days) FILTER (role = 'cutoff') AS cutoff_gap_days,
        max(gap_days) FILTER (role = 'current') AS current_gap_days
    FROM reads
    WHERE view = (CASE WHEN $mode = 'valid' THEN 'valid' ELSE 'record' END)
)
SELECT c.subject, c.pid, c.level, c.change_kind, c.changed_after_cutoff, c.latest, c.outdated,
       c.all_answers, c.ambiguous_reason, c.record_level, c.valid_level, c.backfilled,
       c.not_covered_in, n.init_snapshot, n.cutoff_snapshot, n.current_snapshot,
       n.init_gap_days, n.cutoff_gap_days, n.current_gap_days, c.change_nature
FROM combined AS c
CROSS JOIN read_names AS n;
