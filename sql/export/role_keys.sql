-- name: role_keys
-- purpose: For the benchmark export's distractors (docs/benchmark-export.md#option-kind-agreement):
--          the kind keys each person gains, in any snapshot (statements that are not
--          deprecated): `role <id>` for each occupation (P106) and position held (P39),
--          `sex <id>` for each sex or gender (P21), and `sex <id> role <id>` for each of
--          both together; a person's distractors share one with it. One row per item that
--          holds any (`value`, `keys`: the role keys, then the sex keys, then the pairs, each
--          kind sorted), sorted by value, written to {{out}} in row groups of about 50,000
--          rows, so that the keys of a range of items are read from the row groups that hold
--          them (kgdiff.export.distractors.human_roles).
-- params: {{out}} Parquet path. Reads the view `statements`.
COPY (
    WITH
    held AS (
        SELECT DISTINCT s.subject AS value, s.pid, s.object_qid AS role
        FROM statements AS s
        WHERE s.pid IN ('P21', 'P106', 'P39')
          AND s.object_qid IS NOT NULL
          AND s.rank <> 'deprecated'
    ),
    sexes AS (SELECT value, role AS sex FROM held WHERE pid = 'P21'),
    jobs AS (SELECT DISTINCT value, role FROM held WHERE pid <> 'P21'),
    keyed AS (
        SELECT value, 'role ' || role AS key, 0 AS kind FROM jobs
        UNION
        SELECT value, 'sex ' || sex AS key, 1 AS kind FROM sexes
        UNION
        SELECT j.value, 'sex ' || s.sex || ' role ' || j.role AS key, 2 AS kind
        FROM jobs AS j
        JOIN sexes AS s ON s.value = j.value
    )
    SELECT value, list(key ORDER BY kind, key) AS keys
    FROM keyed
    GROUP BY value
    ORDER BY value
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 50000);
