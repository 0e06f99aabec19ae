-- name: temporal_statements
-- purpose: For the benchmark export's `temporal` config
--          (docs/benchmark-export.md#the-temporal-config):
--          the non-deprecated statements, in the snapshot read (the latest dated at or before
--          $current: valid time), of the groups of the registered relation
--          `temporal_groups(subject, pid)` that have a temporal qualifier (start P580, end
--          P582 or point in time P585) on some non-deprecated statement. Each statement with
--          its qualifiers' intervals as the store parsed them (`start_*`, `end_*`, `point_*`),
--          the value key of its start and of its end qualifier when it has exactly one known
--          value (`start_value`, `end_value`: the precision and calendar are in the key) and
--          how many known values each has (`start_values`, `end_values`), and the subject's
--          start of existence (`existence_lo`: the earliest day of its birth P569 or inception
--          P571) and end (`existence_end_lo`: the earliest day of its death P570 or
--          dissolution P576), NULL when the snapshot has neither. Every row names the
--          snapshot read and its date. Sorted by subject, property, value, statement id.
-- params: $current (DATE). Reads the views `snapshots`, `statements` and `qualifiers`, and
--         the relation `temporal_groups` registered by the caller.
WITH
read AS (
    SELECT s.name, s.date
    FROM snapshots AS s
    WHERE s.date <= CAST($current AS DATE)
    ORDER BY s.date DESC, s.name DESC
    LIMIT 1
),
facts AS (
    SELECT st.*
    FROM statements AS st
    SEMI JOIN temporal_groups AS g ON g.subject = st.subject AND g.pid = st.pid
    WHERE st.snapshot = (SELECT r.name FROM read AS r) AND st.rank <> 'deprecated'
),
dated AS (
    SELECT DISTINCT f.subject, f.pid
    FROM facts AS f
    WHERE f.start_snaktype IS NOT NULL OR f.end_snaktype IS NOT NULL
       OR f.point_snaktype IS NOT NULL
),
bounds AS (
    -- the known values of each statement's start and end qualifiers
    SELECT
        q.subject, q.pid, q.statement_id, q.qualifier_pid,
        count(*) AS n_values,
        min(q.value) AS value
    FROM qualifiers AS q
    SEMI JOIN dated AS d ON d.subject = q.subject AND d.pid = q.pid
    WHERE q.snapshot = (SELECT r.name FROM read AS r)
      AND q.qualifier_pid IN ('P580', 'P582') AND q.snaktype = 'value'
    GROUP BY ALL
),
existence AS (
    SELECT
        st.subject,
        min(st.time_lo) FILTER (st.pid IN ('P569', 'P571')) AS lo,
        min(st.time_lo) FILTER (st.pid IN ('P570', 'P576')) AS end_lo
    FROM statements AS st
    SEMI JOIN (SELECT DISTINCT d.subject FROM dated AS d) AS ds ON ds.subject = st.subject
    WHERE st.snapshot = (SELECT r.name FROM read AS r)
      AND st.pid IN ('P569', 'P570', 'P571', 'P576') AND st.rank <> 'deprecated'
      AND st.snaktype = 'value' AND st.time_lo IS NOT NULL
    GROUP BY st.subject
)
SELECT
    f.subject, f.pid, f.statement_id, f.value,
    f.start_snaktype, f.start_lo, f.start_hi,
    f.end_snaktype, f.end_lo, f.end_hi,
    f.point_snaktype, f.point_lo, f.point_hi,
    CASE WHEN sb.n_values = 1 THEN sb.value END AS start_value,
    coalesce(sb.n_values, 0) AS start_values,
    CASE WHEN eb.n_values = 1 THEN eb.value END AS end_value,
    coalesce(eb.n_values, 0) AS end_values,
    x.lo AS existence_lo,
    x.end_lo AS existence_end_lo,
    r.name AS snapshot,
    r.date AS snapshot_date
FROM facts AS f
SEMI JOIN dated AS d ON d.subject = f.subject AND d.pid = f.pid
CROSS JOIN read AS r
LEFT JOIN bounds AS sb
    ON sb.subject = f.subject AND sb.pid = f.pid AND sb.statement_id = f.statement_id
   AND sb.qualifier_pid = 'P580'
LEFT JOIN bounds AS eb
    ON eb.subject = f.subject AND eb.pid = f.pid AND eb.statement_id = f.statement_id
   AND eb.qualifier_pid = 'P582'
LEFT JOIN existence AS x ON x.subject = f.subject
ORDER BY f.subject, f.pid, f.value, f.statement_id;
