-- name: copy_timelines
-- purpose: The timelines of the subjects of one range [$lo, $hi) in the lookup copy
--          (kgdiff/query/lookup_build.py), appended in subject order: every subject's rows as
--          the catalog's `timeline` macro (sql/timeline/timeline.sql) gives them for it, by the
--          same grouping with the subject added to its keys, so that an entity's timeline is a
--          read of its rows (sql/timeline/timeline_copied.sql), not an aggregation planned and
--          run per question. Computed for a range at once (the macro called per subject in a
--          LATERAL join read every subject's statements for each range); tests hold it equal
--          to the macro's rows, subject by subject.
-- params: $lo, $hi (VARCHAR) the subject range; {{@shard}} its schema (identifier).
INSERT INTO lookup.{{@shard}}.timelines
WITH seen AS (
    SELECT st.subject, st.pid, st.value, st.statement_id, st.rank, st.snapshot,
           st.start_snaktype, st.end_snaktype, st.point_snaktype, s.date AS snapshot_date
    FROM statements AS st
    JOIN snapshots AS s ON s.name = st.snapshot
    WHERE st.subject >= $lo AND st.subject < $hi
),
latest AS (
    SELECT max(date) AS date FROM snapshots
),
statement_rows AS (
    SELECT
        subject,
        pid,
        value,
        statement_id,
        arg_max(rank, snapshot_date) AS rank,
        min(snapshot_date) AS first_seen,
        max(snapshot_date) AS last_seen,
        max(snapshot_date) = (SELECT date FROM latest) AS current,
        list(snapshot ORDER BY snapshot_date) AS snapshots,
        arg_max(snapshot, snapshot_date) AS last_snapshot,
        arg_max(start_snaktype, snapshot_date) AS valid_from_snaktype,
        arg_max(end_snaktype, snapshot_date) AS valid_until_snaktype,
        arg_max(point_snaktype, snapshot_date) AS point_snaktype
    FROM seen
    GROUP BY subject, pid, value, statement_id
),
dated AS (
    SELECT
        q.subject,
        q.snapshot,
        q.statement_id,
        q.qualifier_pid,
        q.value,
        kgdiff_stored_lo(q.time_lo, q.value) AS lo,
        kgdiff_stored_hi(q.time_hi, q.value) AS hi
    FROM qualifiers AS q
    WHERE q.subject >= $lo AND q.subject < $hi
      AND q.qualifier_pid IN ('P580', 'P582', 'P585')
      AND q.snaktype = 'value'
      AND q.value_type = 'time'
),
bounds AS (
    SELECT
        subject,
        snapshot,
        statement_id,
        qualifier_pid,
        list(value ORDER BY lo, value) AS dates,
        min(lo) AS lo,
        max(hi) AS hi
    FROM dated
    GROUP BY subject, snapshot, statement_id, qualifier_pid
)
SELECT
    r.subject,
    r.pid,
    r.value,
    r.statement_id,
    r.rank,
    r.first_seen,
    r.last_seen,
    r.current,
    r.snapshots,
    f.dates AS valid_from,
    f.lo AS valid_from_lo,
    f.hi AS valid_from_hi,
    u.dates AS valid_until,
    u.lo AS valid_until_lo,
    u.hi AS valid_until_hi,
    p.dates AS point,
    p.lo AS point_lo,
    p.hi AS point_hi,
    r.valid_from_snaktype,
    r.valid_until_snaktype,
    r.point_snaktype
FROM statement_rows AS r
LEFT JOIN bounds AS f
    ON f.subject = r.subject AND f.snapshot = r.last_snapshot
   AND f.statement_id = r.statement_id AND f.qualifier_pid = 'P580'
LEFT JOIN bounds AS u
    ON u.subject = r.subject AND u.snapshot = r.last_snapshot
   AND u.statement_id = r.statement_id AND u.qualifier_pid = 'P582'
LEFT JOIN bounds AS p
    ON p.subject = r.subject AND p.snapshot = r.last_snapshot
   AND p.statement_id = r.statement_id AND p.qualifier_pid = 'P585'
ORDER BY r.subject;
