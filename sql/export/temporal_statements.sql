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
--          how many known values each has (`start_values`, `end_values`), the subject's
--          birth (`birth_lo`, `birth_hi`: the earliest and the latest day its birth dates P569
--          may denote; an inception P571 is no start of existence a question may rest on)
--          and its end of existence (`existence_end_lo`: the earliest day of its death P570
--          or dissolution P576), NULL when the snapshot has none; whether the statement's
--          start may be the subject's birth (`started_at_birth`) and its end the subject's
--          death P570 (`ended_at_death`); and whether the object held the same value more
--          than once: the group's statements of the same object (`object_statements`) and
--          how many of them have an end (`object_ends`), and `office_held_again`, true when
--          the object (a person) holds a position (P39) in more than one statement, one of
--          which starts when this statement starts or ends when it ends (the same office:
--          Michelle Bachelet's second term as President of Chile starts on the day her term
--          as Chile's head of state does, and her first term is a statement of its own),
--          read in the latest snapshot at or before $current that holds the object's
--          positions (the registered relation `temporal_terms`:
--          sql/export/temporal_terms.sql). Every row names the snapshot read and its date.
--          Only the subjects from $first to $last (in text order) are read: the caller reads
--          the groups range by range, each query reading that range of the statements and
--          qualifiers (sorted by subject) rather than all of them. Sorted by subject,
--          property, value, statement id.
-- params: $current (DATE); $first, $last (VARCHAR: the first and the last subject of the
--         range). Reads the views `snapshots`, `statements` and `qualifiers`, and the
--         relations `temporal_groups` (subject, pid: the groups, all within the range) and
--         `temporal_terms` registered by the caller.
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
      AND st.subject BETWEEN $first AND $last
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
      AND q.subject BETWEEN $first AND $last
    GROUP BY ALL
),
same_object AS (
    SELECT
        f.subject, f.pid, f.value,
        count(*) AS n_statements,
        count(*) FILTER (f.end_snaktype IN ('value', 'somevalue')) AS n_ends
    FROM facts AS f
    GROUP BY f.subject, f.pid, f.value
),
existence AS (
    SELECT
        st.subject,
        min(st.time_lo) FILTER (st.pid = 'P569') AS birth_lo,
        max(st.time_hi) FILTER (st.pid = 'P569') AS birth_hi,
        min(st.time_lo) FILTER (st.pid = 'P570') AS death_lo,
        max(st.time_hi) FILTER (st.pid = 'P570') AS death_hi,
        min(st.time_lo) FILTER (st.pid IN ('P570', 'P576')) AS end_lo
    FROM statements AS st
    SEMI JOIN (SELECT DISTINCT d.subject FROM dated AS d) AS ds ON ds.subject = st.subject
    WHERE st.snapshot = (SELECT r.name FROM read AS r)
      AND st.pid IN ('P569', 'P570', 'P576') AND st.rank <> 'deprecated'
      AND st.subject BETWEEN $first AND $last
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
    x.birth_lo,
    x.birth_hi,
    x.end_lo AS existence_end_lo,
    coalesce(f.start_snaktype = 'value' AND f.start_lo <= x.birth_hi
             AND f.start_hi >= x.birth_lo, false) AS started_at_birth,
    coalesce(f.end_snaktype = 'value' AND f.end_lo <= x.death_hi
             AND f.end_hi >= x.death_lo, false) AS ended_at_death,
    so.n_statements AS object_statements,
    so.n_ends AS object_ends,
    EXISTS (
        SELECT 1 FROM temporal_terms AS t
        WHERE t.holder = f.value
          AND ((f.start_snaktype = 'value' AND t.start_lo <= f.start_hi
                AND t.start_hi >= f.start_lo)
               OR (f.end_snaktype = 'value' AND t.end_lo <= f.end_hi
                   AND t.end_hi >= f.end_lo))
    ) AS office_held_again,
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
JOIN same_object AS so
    ON so.subject = f.subject AND so.pid = f.pid AND so.value IS NOT DISTINCT FROM f.value
ORDER BY f.subject, f.pid, f.value, f.statement_id;
