-- name: chains
-- purpose: Multi-hop chains (s1,p1,o1),(o1,p2,o2),... at a reference date (docs/questions.md),
--          in record time: the last stage, after sql/chains/chain_edges.sql (the hops valid
--          at the date in the latest snapshot at or before it, judged three-valued:
--          docs/classification.md) and sql/chains/chain_walk.sql (their chains: every hop but
--          the last single-valued, no entity repeated, p2 after p1 only if the relation map
--          allows it; the last hop picks the latest start, then the smallest value key, and
--          lists all best-rank values as `answers`). kgdiff runs the stages one at a time,
--          each kept in a temporary table (`chain_edges`, `chain_walk`), so that each spills
--          within DuckDB's memory limit; the catalog macro `chains` and a streamed search run
--          them as one query (kgdiff/temporal/chains.py). One row per chain of 2 .. $max_hops
--          hops, with the snapshot read and `gap_days` (the date minus the snapshot's date).
--          Labels in $lang as of the snapshot read (else the nearest snapshot that has one; an
--          id without a label stands for itself, sql/labels/entity_labels.sql): `start_label`,
--          each hop's `subject_label`, `pid_label` and `object_label`, the answer's
--          `answer_label` and its aliases in $lang (from the snapshot that gave the label).
--          Each hop's `start` is its start qualifiers' values as Wikidata writes them (time
--          value keys, earliest first; NULL without one) and `start_lo` the first day they may
--          denote (a day number, days since 1970-01-01: exact for any date, kgdiff_stored_lo).
--          A date more than $max_gap days after the latest snapshot, or before the first, is
--          an error naming the snapshots unless $allow_gap (sql/dates/date_reads.sql; allowed,
--          a date before the first snapshot has no chain). Reads the relation `chain_walk`,
--          the views `snapshots`, `qualifiers` and `labels`, and the macros `date_reads`,
--          `entity_labels` and `kgdiff_stored_lo`.
-- params: $ref_date (DATE); $max_gap (INTEGER days), $allow_gap (BOOLEAN); $lang (VARCHAR).
--         With its stages: $max_hops (INTEGER >= 2); $relations (MAP(VARCHAR, VARCHAR[]): a
--         pid -> the pids allowed as its next hop; its keys are the allowed first pids);
--         $subjects (start subjects: a list, or one id as a string; empty = all);
--         $first_pids (VARCHAR[], empty = every key of $relations) (macro defaults 3, the
--         shipped map, [], [], 31, false, 'en').
WITH
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
names AS (
    -- (`chain_walk` read itself at each use, not a CTE copy of it: see chain_walk.sql)
    -- labels as of the snapshot read (sql/labels/entity_labels.sql)
    SELECT n.id, n.label, n.label_snapshot
    FROM entity_labels(
        (SELECT list(DISTINCT x.id) FROM (
            SELECT c.origin AS id FROM chain_walk AS c
            UNION ALL SELECT unnest([h.pid FOR h IN c.hops]) FROM chain_walk AS c
            UNION ALL SELECT unnest([h.object FOR h IN c.hops]) FROM chain_walk AS c
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
          SELECT unnest([h.statement_id FOR h IN c.hops]) FROM chain_walk AS c
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
        FROM chain_walk AS c
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
      AND a.qid IN (SELECT c.hops[-1].object FROM chain_walk AS c)
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
FROM chain_walk AS c
CROSS JOIN reading AS r
JOIN labelled_hops AS lh ON lh.chain = c.chain
LEFT JOIN names AS ns ON ns.id = c.origin
LEFT JOIN names AS na ON na.id = c.hops[-1].object
LEFT JOIN aliases AS al ON al.qid = c.hops[-1].object
ORDER BY start_subject, n_hops, [h.pid FOR h IN c.hops];
