-- name: chains
-- purpose: Multi-hop chains (s1,p1,o1),(o1,p2,o2),... at a reference date (docs/questions.md),
--          in record time: read the latest snapshot at or before the date and judge every
--          hop's start/end/point qualifiers at the date (docs/classification.md, three-valued).
--          A hop is a non-deprecated, item-valued statement valid at the date, chosen from
--          the best rank present in its (subject, pid) group (preferred, else normal); a group
--          with a statement of unknown validity at that rank or better takes no part. Every
--          hop but the last is single-valued (its group has exactly one best-rank value);
--          the last hop picks the latest start, then the smallest value key, and lists all
--          best-rank values as `answers`. No entity repeats; pid p2 may follow p1 only if
--          the relation map allows it. One row per chain of 2 .. $max_hops hops, with the
--          snapshot read and `gap_days` (the date minus the snapshot's date). Labels in $lang
--          as of the snapshot read (else the nearest snapshot that has one; an id without a
--          label stands for itself, sql/labels/entity_labels.sql): `start_label`, each hop's
--          `subject_label`, `pid_label` and `object_label`, the answer's `answer_label` and
--          its aliases in $lang (from the snapshot that gave the label). Each hop's `start`
--          is its start qualifiers' values as Wikidata writes them (time value keys, earliest
--          first; NULL without one) and `start_lo` the first day they may denote (a day
--          number, days since 1970-01-01: exact for any date, kgdiff_stored_lo).
--          A date more than $max_gap days after the latest snapshot, or before the first, is
--          an error naming the snapshots unless $allow_gap (sql/dates/date_reads.sql; allowed,
--          a date before the first snapshot has no chain). Reads the views `snapshots`,
--          `statements`, `qualifiers` and `labels`, and the macros `date_reads`,
--          `entity_labels` and `kgdiff_stored_lo`.
-- params: $ref_date (DATE); $max_hops (INTEGER >= 2); $relations (MAP(VARCHAR, VARCHAR[]):
--         a pid -> the pids allowed as its next hop; its keys are the allowed first pids);
--         $subjects (start subjects: a list, or one id as a string; empty = all);
--         $first_pids (VARCHAR[], empty = every key of $relations); $max_gap (INTEGER days),
--         $allow_gap (BOOLEAN);
--         $lang (VARCHAR) (macro defaults 3, the shipped map, [], [], 31, false, 'en').
WITH RECURSIVE
reading AS (
    -- record time: the snapshot at or before the date (a date beyond the data is an error
    -- unless $allow_gap). One aggregated row: no filter of a later step can be pushed below
    -- it and skip the check.
    SELECT any_value(d.snapshot) AS snapshot, any_value(d.day) AS day,
           any_value(d.gap_days) AS gap_days
    FROM date_reads(
        [CAST($ref_date AS DATE)], ['date'], 'record',
        max_gap := $max_gap, allow_gap := $allow_gap
    ) AS d
),
links AS (
    SELECT entry.key AS pid, unnest(entry.value) AS next_pid
    FROM (SELECT unnest(map_entries(CAST($relations AS MAP(VARCHAR, VARCHAR[])))) AS entry)
),
start_subjects AS (
    -- the start subjects, given as a list or as one id in a string (the macro takes both):
    -- the text of either, brackets, quotes and spaces taken out, split at commas
    SELECT list_filter(
        string_split(regexp_replace(CAST($subjects AS VARCHAR), '[\[\]\s'']', '', 'g'), ','),
        lambda x: x <> ''
    ) AS ids
),
judged AS (
    SELECT
        st.subject, st.pid, st.value, st.object_qid, st.statement_id, st.rank, st.start_lo,
        CASE WHEN st.rank = 'preferred' THEN 0 ELSE 1 END AS rank_order,
        CASE
            WHEN coalesce(st.start_snaktype, 'novalue') = 'novalue'
                 AND coalesce(st.end_snaktype, 'novalue') = 'novalue'
                 AND st.point_snaktype IN ('value', 'somevalue') THEN
                CASE
                    WHEN st.point_snaktype = 'value' AND st.point_hi <= r.day THEN 'valid'
                    WHEN st.point_snaktype = 'value' AND st.point_lo > r.day THEN 'not_valid'
                    ELSE 'unknown'
                END
            WHEN (st.start_snaktype = 'value' AND st.start_lo > r.day)
                 OR (st.end_snaktype = 'value' AND st.end_hi <= r.day) THEN 'not_valid'
            WHEN 'somevalue' IN (st.start_snaktype, st.end_snaktype) THEN 'unknown'
            WHEN (st.start_snaktype IS DISTINCT FROM 'value' OR st.start_hi <= r.day)
                 AND (st.end_snaktype IS DISTINCT FROM 'value' OR st.end_lo > r.day) THEN 'valid'
            ELSE 'unknown'
        END AS validity
    FROM statements AS st
    JOIN reading AS r ON st.snapshot = r.snapshot
    WHERE st.rank <> 'deprecated'
      AND st.pid IN (SELECT pid FROM links UNION SELECT next_pid FROM links)
),
best AS (
    -- per group: the best rank among its valid statements, unless a statement of unknown
    -- validity has that rank or a better one
    SELECT subject, pid, best_order
    FROM (
        SELECT
            subject, pid,
            min(rank_order) FILTER (validity = 'valid') AS best_order,
            min(rank_order) FILTER (validity = 'unknown') AS unknown_order
        FROM judged
        GROUP BY subject, pid
    )
    WHERE best_order IS NOT NULL AND coalesce(unknown_order > best_order, true)
),
edges AS (
    -- one hop per group: is it single-valued, which statement it takes, all its answers
    SELECT
        j.subject, j.pid,
        count(DISTINCT j.value) = 1 AS single,
        first({
            'subject': j.subject, 'pid': j.pid, 'object': j.object_qid,
            'statement_id': j.statement_id, 'rank': j.rank
        } ORDER BY j.start_lo DESC NULLS LAST, j.value, j.statement_id) AS hop,
        list(DISTINCT j.object_qid ORDER BY j.object_qid) AS answers
    FROM judged AS j
    JOIN best AS b ON b.subject = j.subject AND b.pid = j.pid AND b.best_order = j.rank_order
    WHERE j.validity = 'valid'
    GROUP BY j.subject, j.pid
    HAVING bool_and(j.object_qid IS NOT NULL)
),
walk AS (
    SELECT e.subject AS origin, [e.subject, e.hop.object] AS visited, [e.hop] AS hops,
           e.single, e.answers
    FROM edges AS e
    CROSS JOIN start_subjects
    WHERE e.single
      AND e.hop.object <> e.subject
      AND e.pid IN (SELECT pid FROM links)
      AND (len(CAST($first_pids AS VARCHAR[])) = 0
           OR list_contains(CAST($first_pids AS VARCHAR[]), e.pid))
      AND (len(start_subjects.ids) = 0 OR list_contains(start_subjects.ids, e.subject))
    UNION ALL
    SELECT w.origin, list_append(w.visited, e.hop.object), list_append(w.hops, e.hop),
           e.single, e.answers
    FROM walk AS w
    JOIN links AS l ON l.pid = w.hops[-1].pid
    JOIN edges AS e ON e.subject = w.hops[-1].object AND e.pid = l.next_pid
    WHERE w.single
      AND len(w.hops) < CAST($max_hops AS INTEGER)
      AND NOT list_contains(w.visited, e.hop.object)
),
chained AS (
    SELECT row_number() OVER () AS chain, w.*
    FROM walk AS w
    WHERE len(w.hops) >= 2
),
names AS (
    -- labels as of the snapshot read (sql/labels/entity_labels.sql)
    SELECT n.id, n.label, n.label_snapshot
    FROM entity_labels(
        (SELECT list(DISTINCT x.id) FROM (
            SELECT c.origin AS id FROM chained AS c
            UNION ALL SELECT unnest([h.pid FOR h IN c.hops]) FROM chained AS c
            UNION ALL SELECT unnest([h.object FOR h IN c.hops]) FROM chained AS c
        ) AS x),
        label_snapshot := (SELECT r.snapshot FROM reading AS r),
        label_lang := $lang
    ) AS n
),
hop_starts AS (
    -- the start qualifiers of the chains' hops, as Wikidata writes them (earliest first) and
    -- as the first day they may denote (a day number: a start before the common era, or
    -- billions of years ago, is no DATE a client can read)
    SELECT
        q.statement_id,
        list(q.value ORDER BY kgdiff_stored_lo(q.time_lo, q.value), q.value) AS dates,
        min(kgdiff_stored_lo(q.time_lo, q.value)) AS lo
    FROM qualifiers AS q
    WHERE q.snapshot = (SELECT r.snapshot FROM reading AS r)
      AND q.qualifier_pid = 'P580' AND q.snaktype = 'value' AND q.value_type = 'time'
      AND q.statement_id IN (
          SELECT unnest([h.statement_id FOR h IN c.hops]) FROM chained AS c
      )
    GROUP BY q.statement_id
),
labelled_hops AS (
    SELECT
        h.chain,
        list(struct_insert(
            h.hop,
            start := hs.dates,
            start_lo := hs.lo,
            subject_label := coalesce(ns.label, h.hop.subject),
            pid_label := coalesce(np.label, h.hop.pid),
            object_label := coalesce(nob.label, h.hop.object)
        ) ORDER BY h.i) AS hops
    FROM (
        SELECT c.chain, unnest(c.hops) AS hop, generate_subscripts(c.hops, 1) AS i
        FROM chained AS c
    ) AS h
    LEFT JOIN hop_starts AS hs ON hs.statement_id = h.hop.statement_id
    LEFT JOIN names AS ns ON ns.id = h.hop.subject
    LEFT JOIN names AS np ON np.id = h.hop.pid
    LEFT JOIN names AS nob ON nob.id = h.hop.object
    GROUP BY h.chain
),
aliases AS (
    -- the answer's aliases in $lang, from the snapshot that gave its label
    SELECT a.qid, list(a.value ORDER BY a.ordinal, a.value) AS aliases
    FROM labels AS a
    JOIN names AS n ON n.id = a.qid AND n.label_snapshot = a.snapshot
    WHERE a.kind = 'alias' AND a.lang = $lang
      AND a.qid IN (SELECT c.hops[-1].object FROM chained AS c)
    GROUP BY a.qid
)
SELECT
    c.origin AS start_subject,
    r.day AS ref_date,
    r.snapshot,
    r.gap_days,
    len(c.hops) AS n_hops,
    lh.hops,
    c.hops[-1].object AS answer,
    coalesce(na.label, c.hops[-1].object) AS answer_label,
    coalesce(al.aliases, []) AS answer_aliases,
    c.answers,
    coalesce(ns.label, c.origin) AS start_label
FROM chained AS c
CROSS JOIN reading AS r
JOIN labelled_hops AS lh ON lh.chain = c.chain
LEFT JOIN names AS ns ON ns.id = c.origin
LEFT JOIN names AS na ON na.id = c.hops[-1].object
LEFT JOIN aliases AS al ON al.qid = c.hops[-1].object
ORDER BY start_subject, n_hops, [h.pid FOR h IN c.hops];
