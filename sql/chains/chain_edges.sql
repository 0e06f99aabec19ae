-- name: chain_edges
-- purpose: A stage of sql/chains/chains.sql (docs/questions.md): the hops a chain at
--          the date may take, in record time. Reads the snapshot of `chain_reading` (the
--          latest at or before the date) and judges every statement's start/end/point
--          qualifiers at the date
--          (docs/classification.md, three-valued). A hop is a non-deprecated, item-valued
--          statement of a relation of $relations (a key or a next hop) valid at the date,
--          chosen from the best rank present in its (subject, pid) group (preferred, else
--          normal); a group with a statement of unknown validity at that rank or better takes
--          no part. One row per group: `edge` (a number), `subject`, `pid`, `single` (the group
--          has exactly one best-rank value), `hop` (the statement it takes: the latest start,
--          then the smallest value key: subject, pid, object, statement_id, rank) and
--          `answers` (every best-rank value). kgdiff keeps it in a temporary table before the walk,
--          so that each stage spills within DuckDB's memory limit (one query ran out of 1 GB
--          at 3 × 50 M statements); the catalog macro `chains` runs the stages as one query.
--          kgdiff finds the hops of the subjects in [$subject_from, $subject_to) at a time,
--          their edges numbered from $first_edge + 1 (every subject at once took DuckDB's 2.7
--          GB at 3 × 100 M statements and ran out of it at 3 × 200 M: the ordered aggregates
--          do not spill); the macro reads every subject, numbered from 1.
-- params: $relations (MAP(VARCHAR, VARCHAR[])); $subject_from, $subject_to (VARCHAR);
--         $first_edge (BIGINT). Reads the relation `chain_reading` and the view `statements`.
WITH
links AS (
    SELECT entry.key AS pid, unnest(entry.value) AS next_pid
    FROM (SELECT unnest(map_entries(CAST($relations AS MAP(VARCHAR, VARCHAR[])))) AS entry)
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
    JOIN chain_reading AS r ON st.snapshot = r.snapshot
    WHERE st.rank <> 'deprecated'
      AND st.subject >= $subject_from AND st.subject < $subject_to
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
    -- one hop per group: is it single-valued, which statement it takes, all its answers,
    -- numbered: the walk carries the numbers, not the hops
    SELECT
        CAST($first_edge AS BIGINT) + row_number() OVER () AS edge,
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
)
SELECT * FROM edges;
