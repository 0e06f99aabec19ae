-- name: pools
-- purpose: Chronological object pools (ChroKnowBench, docs/questions.md): for each (subject, pid)
--          group and each year (or month) of a range, the value keys of the group's
--          non-deprecated statements in the subject's latest snapshot (valid time) that may be
--          valid on some day of that period. A subject's latest snapshot is the latest that
--          speaks for it: a full snapshot speaks for every entity (one it lacks did not exist),
--          a subset snapshot only for the ids of its coverage table; a subject that the latest
--          snapshot, a subset, does not hold is read from the latest earlier one that does.
--          One row per group with its periods in order, each with its objects, the ones only
--          precision makes overlap (`precision_only`), the ones without temporal qualifiers
--          (`unqualified`, kept in every period), `filled` (an empty period given the
--          previous period's pool) and `gap_days` (the period's
--          last day minus the date of the subject's snapshot: positive for the days of the
--          period that its data do not reach); `state` is 'dynamic' if the pool changes over the
--          range, else 'static'. Groups with no object in any period are not reported.
--          Exact semantics: the docstring of kgdiff/temporal/pools.py; the pooling rules
--          themselves are the macro kgdiff_pooled (sql/pools/pooled.sql), which the benchmark
--          export's sql/export/pool_years.sql calls too (sql/export/pool_reads.sql picks each
--          subject's snapshot as `subject_reads` does here: change both).
--          The range is checked against the store (sql/dates/date_reads.sql, valid time): the
--          pools reach the last day of $to_year (in the latest snapshot's own year: its date);
--          a reach more than $max_gap days after the latest snapshot (a year after the latest
--          snapshot's year, unless $max_gap covers all of it) is an error naming the
--          snapshots unless $allow_gap. Each row names the snapshot its subject's pools read
--          (`snapshot`) and carries the labels in $lang of its subject, property and objects
--          as of the latest snapshot (an id without a label there: as of the nearest earlier
--          one, then later one; an id without any label stands for itself;
--          sql/labels/entity_labels.sql): `subject_label`, `pid_label`, `all_objects_labels`
--          and each period's `objects_labels`.
--          Reads the views `snapshots(name, date, coverage)`, `coverage(snapshot, qid)`,
--          `statements(snapshot, subject, pid, rank, value, start_*, end_*, point_*)` and
--          `labels`, and the macros `date_reads`, `entity_labels` and `kgdiff_pooled`. (Columns `pid` and `qid`
--          are never named unqualified here: in the catalog macro those names are parameters;
--          nor is `lang`.)
-- params: $qid subject (NULL = every subject); $subject_from, $subject_to (VARCHAR, NULL =
--         unbounded): only the subjects in [subject_from, subject_to), so that the pools of
--         every subject can be read a range at a time (kgdiff/temporal/pools.py); $pid
--         property (NULL = every property);
--         $from_year, $to_year (INTEGER, from_year <= to_year; NULL: to_year the latest
--         snapshot's year, from_year 2010 or to_year if earlier); $granularity ('year' | 'month');
--         $max_gap (INTEGER days), $allow_gap (BOOLEAN); $lang (VARCHAR) (macro defaults
--         'year', 31, false, 'en', NULL, NULL).
WITH
store AS (
    SELECT max(s.date) AS last_date FROM snapshots AS s
),
bounds AS (
    -- the years asked for, else the latest snapshot's year and 2010 (ChroKnowBench's first)
    SELECT coalesce(CAST($from_year AS BIGINT), least(2010, y.last_year)) AS first_year,
           y.last_year
    FROM (
        SELECT coalesce(CAST($to_year AS BIGINT), year(st.last_date)) AS last_year
        FROM store AS st
    ) AS y
),
reach AS (
    -- the snapshot read (the latest) and the last day the pools claim to know; a day beyond
    -- the data is an error unless $allow_gap. One aggregated row: no filter of a later step
    -- can be pushed below it and skip the check.
    SELECT any_value(r.snapshot) AS name, any_value(r.snapshot_date) AS snapshot_date
    FROM date_reads(
        [(SELECT CASE
            WHEN b.last_year > year(st.last_date) THEN make_date(b.last_year, 12, 31)
            ELSE least(make_date(b.last_year, 12, 31), st.last_date)
         END FROM store AS st CROSS JOIN bounds AS b)],
        ['the pools'' last day'],
        'valid',
        as_of := (SELECT st.last_date FROM store AS st),
        max_gap := $max_gap,
        allow_gap := $allow_gap
    ) AS r
),
latest_full AS (
    -- the latest full snapshot at or before the one read: it speaks for every entity
    SELECT arg_max(s.name, (s.date, s.name)) AS name, max(s.date) AS day
    FROM snapshots AS s
    WHERE s.coverage = 'full' AND s.date <= (SELECT r.snapshot_date FROM reach AS r)
),
subject_reads AS (
    -- the subjects a subset snapshot later than the latest full one holds, each with the
    -- latest such snapshot (every other subject reads the latest full snapshot)
    SELECT c.qid AS subject, arg_max(s.name, (s.date, s.name)) AS snapshot
    FROM coverage AS c
    JOIN snapshots AS s ON s.name = c.snapshot
    CROSS JOIN latest_full AS f
    WHERE s.coverage = 'subset'
      AND s.date <= (SELECT r.snapshot_date FROM reach AS r)
      AND (f.name IS NULL OR s.date > f.day OR (s.date = f.day AND s.name > f.name))
      AND ($qid IS NULL OR c.qid = $qid)
      AND ($subject_from IS NULL OR c.qid >= $subject_from)
      AND ($subject_to IS NULL OR c.qid < $subject_to)
    GROUP BY c.qid
),
periods AS (
    SELECT row_number() OVER (ORDER BY x.lo) AS idx, x.label, x.lo, x.hi
    FROM (
        SELECT CAST(y AS VARCHAR) AS label, make_date(y, 1, 1) AS lo, make_date(y, 12, 31) AS hi
        FROM bounds AS b, range(b.first_year, b.last_year + 1) AS t(y)
        WHERE $granularity = 'year'
        UNION ALL
        SELECT
            printf('%d-%02d', y, mo) AS label,
            make_date(y, mo, 1) AS lo,
            last_day(make_date(y, mo, 1)) AS hi
        FROM bounds AS b, range(b.first_year, b.last_year + 1) AS t(y)
        CROSS JOIN range(1, 13) AS u(mo)
        WHERE $granularity = 'month'
    ) AS x
),
read_statements AS (
    -- each subject's statements in its snapshot: the one read (every subject it holds reads
    -- it), an earlier subset snapshot (subject_reads), or the latest full snapshot (a subject
    -- no later snapshot holds); three branches, so that each scan reads its snapshots alone
    SELECT st.*
    FROM statements AS st
    WHERE st.snapshot = (SELECT r.name FROM reach AS r)
      AND ($qid IS NULL OR st.subject = $qid)
      AND ($subject_from IS NULL OR st.subject >= $subject_from)
      AND ($subject_to IS NULL OR st.subject < $subject_to)
      AND ($pid IS NULL OR st.pid = $pid)
    UNION ALL
    SELECT st.*
    FROM statements AS st
    JOIN subject_reads AS sr ON sr.snapshot = st.snapshot AND sr.subject = st.subject
    WHERE sr.snapshot <> (SELECT r.name FROM reach AS r)
      AND ($qid IS NULL OR st.subject = $qid)
      AND ($subject_from IS NULL OR st.subject >= $subject_from)
      AND ($subject_to IS NULL OR st.subject < $subject_to)
      AND ($pid IS NULL OR st.pid = $pid)
    UNION ALL
    SELECT st.*
    FROM statements AS st
    ANTI JOIN subject_reads AS sr ON sr.subject = st.subject
    WHERE st.snapshot = coalesce(
        (SELECT f.name FROM latest_full AS f, reach AS r WHERE f.name <> r.name), ''
    )
      AND ($qid IS NULL OR st.subject = $qid)
      AND ($subject_from IS NULL OR st.subject >= $subject_from)
      AND ($subject_to IS NULL OR st.subject < $subject_to)
      AND ($pid IS NULL OR st.pid = $pid)
),
read_from AS (
    -- the snapshot each subject with statements was read from, and its date
    SELECT DISTINCT st.subject, st.snapshot, s.date AS snapshot_date
    FROM read_statements AS st
    JOIN snapshots AS s ON s.name = st.snapshot
    WHERE st.rank <> 'deprecated'
),
pooled AS (
    -- the pooling rules (sql/pools/pooled.sql, shared with the benchmark export)
    SELECT * FROM kgdiff_pooled('read_statements', 'periods')
),
changes AS (
    SELECT
        po.*,
        coalesce(po.objects <> lag(po.objects) OVER (
            PARTITION BY po.subject, po.property ORDER BY po.idx
        ), false) AS changed
    FROM pooled AS po
),
grouped AS (
    SELECT
        ch.subject,
        ch.property,
        any_value(rf.snapshot) AS snapshot,
        CASE WHEN bool_or(ch.changed) THEN 'dynamic' ELSE 'static' END AS state,
        count(*) FILTER (ch.changed) AS changes,
        list_sort(list_distinct(flatten(list(ch.objects)))) AS all_objects,
        list({
            'period': ch.label,
            'first_day': ch.lo,
            'last_day': ch.hi,
            'objects': ch.objects,
            'precision_only': ch.precision_only,
            'unqualified': ch.unqualified,
            'filled': ch.filled,
            'gap_days': ch.hi - rf.snapshot_date
        } ORDER BY ch.idx) AS periods
    FROM changes AS ch
    JOIN read_from AS rf ON rf.subject = ch.subject
    GROUP BY ch.subject, ch.property
),
names AS (
    -- labels as of the snapshot read (sql/labels/entity_labels.sql)
    SELECT n.id, n.label
    FROM entity_labels(
        (SELECT list(DISTINCT x.id) FROM (
            SELECT g.subject AS id FROM grouped AS g
            UNION ALL SELECT g.property FROM grouped AS g
            UNION ALL SELECT unnest(g.all_objects) FROM grouped AS g
        ) AS x),
        label_snapshot := (SELECT r.name FROM reach AS r),
        label_lang := $lang
    ) AS n
),
object_labels AS (
    SELECT o.subject, o.property, list(coalesce(n.label, o.value) ORDER BY o.i) AS labels
    FROM (
        SELECT g.subject, g.property, unnest(g.all_objects) AS value,
               generate_subscripts(g.all_objects, 1) AS i
        FROM grouped AS g
    ) AS o
    LEFT JOIN names AS n ON n.id = o.value
    GROUP BY o.subject, o.property
)
SELECT
    g.subject,
    g.property AS pid,
    $granularity AS granularity,
    g.state,
    g.changes,
    g.all_objects,
    list_transform(g.periods, lambda p: struct_insert(p, objects_labels := list_transform(
        p.objects, lambda x: ol.labels[list_position(g.all_objects, x)]
    ))) AS periods,
    g.snapshot,
    coalesce(ns.label, g.subject) AS subject_label,
    coalesce(np.label, g.property) AS pid_label,
    ol.labels AS all_objects_labels
FROM grouped AS g
LEFT JOIN object_labels AS ol ON ol.subject = g.subject AND ol.property = g.property
LEFT JOIN names AS ns ON ns.id = g.subject
LEFT JOIN names AS np ON np.id = g.property
ORDER BY g.subject, g.property;
