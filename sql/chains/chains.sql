-- name: chains
-- purpose: Multi-hop chains (s1,p1,o1),(o1,p2,o2),... at a reference date (docs/questions.md),
--          in record time: the last stage, after sql/chains/chain_reading.sql (the snapshot
--          read: the latest at or before the date), chain_edges.sql (the hops valid at the
--          date in that snapshot, judged three-valued: docs/classification.md),
--          chain_walk.sql (their chains: every hop but the last single-valued, no entity
--          repeated, p2 after p1 only if the relation map allows it; the last hop picks the
--          latest start, then the smallest value key, and lists all best-rank values as
--          `answers`), chain_names.sql, chain_hop_starts.sql and chain_aliases.sql (what the
--          chains show of them). kgdiff runs the stages one at a time, each kept in a
--          temporary table named after it, so that each spills within DuckDB's memory limit;
--          the catalog macro `chains` and a streamed search run them as one query
--          (kgdiff/temporal/chains.py). One row per chain of 2 .. $max_hops
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
--          a date before the first snapshot has no chain). Reads the relations
--          `chain_reading`, `chain_walk`, `chain_names`, `chain_hop_starts` and
--          `chain_aliases`.
-- params: $subject_from, $subject_to (VARCHAR: the chains whose start subject is in that
--         range; the macro gives every one). With its stages: $ref_date (DATE); $max_gap
--         (INTEGER days), $allow_gap (BOOLEAN); $lang (VARCHAR);
--         $max_hops (INTEGER >= 2); $relations (MAP(VARCHAR, VARCHAR[]): a
--         pid -> the pids allowed as its next hop; its keys are the allowed first pids);
--         $subjects (start subjects: a list, or one id as a string; empty = all);
--         $first_pids (VARCHAR[], empty = every key of $relations) (macro defaults 3, the
--         shipped map, [], [], 31, false, 'en').
WITH
walked AS NOT MATERIALIZED (
    -- the chains that start in [$subject_from, $subject_to): kgdiff puts them together a
    -- range of start subjects at a time (every chain at once took DuckDB's 2.7 GB at 3 × 200 M
    -- statements, 0.9 M chains), in order, so that the ranges' rows one after the other are
    -- in the order of all of them. Not materialised: each use reads `chain_walk` itself (a
    -- copy of it, hops and all, ran out of 1 GB at 3 × 100 M: see chain_walk.sql)
    SELECT * FROM chain_walk WHERE origin >= $subject_from AND origin < $subject_to
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
        FROM walked AS c
    ) AS h
    LEFT JOIN chain_hop_starts AS hs ON hs.statement_id = h.hop.statement_id
    LEFT JOIN chain_names AS ns ON ns.id = h.hop.subject
    LEFT JOIN chain_names AS np ON np.id = h.hop.pid
    LEFT JOIN chain_names AS nob ON nob.id = h.hop.object
    GROUP BY h.chain
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
FROM walked AS c
CROSS JOIN chain_reading AS r
JOIN labelled_hops AS lh ON lh.chain = c.chain
LEFT JOIN chain_names AS ns ON ns.id = c.origin
LEFT JOIN chain_names AS na ON na.id = c.hops[-1].object
LEFT JOIN chain_aliases AS al ON al.qid = c.hops[-1].object
ORDER BY start_subject, n_hops, [h.pid FOR h IN c.hops];
