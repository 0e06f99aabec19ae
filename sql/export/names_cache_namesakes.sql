-- name: names_cache_namesakes
-- purpose: For the benchmark export's names (sql/export/entity_names.sql): in snapshot
--          $snapshot, each label in the export's language that more than one item carries,
--          or that an item and an entity of another kind (a property) both carry, with how
--          many items carry it, the most sitelinks one of them has in that snapshot and how
--          many of them have that many. A named entity's label "names another item first"
--          when another item of its snapshot has at least as many sitelinks (Alexandria,
--          Virginia beside Alexandria, Egypt): that is told from these figures alone, so the
--          naming queries, which run id range by id range, never read every label of the
--          snapshot again. Run for the labels whose hash(value) % $parts is $part, one part
--          after the other: all of a snapshot's labels at once took more than the export's
--          1 GB of DuckDB at 3 × 200 M statements (~14 M English labels a snapshot). Only the
--          labels carried twice or by a non-item are joined with `entities` (most labels
--          are one entity's). Kept beside `in_lang` (sql/export/names_cache_in_lang.sql,
--          which it reads) in the attached database {{@names}} of that language.
-- params: $snapshot (VARCHAR), $parts (UBIGINT), $part (UBIGINT); {{@names}} (the attached
--         database). Reads the view `entities` and the table `in_lang` of {{@names}}.
INSERT INTO {{@names}}.namesakes
WITH labels_of_part AS (
    SELECT l.qid, l.value
    FROM {{@names}}.in_lang AS l
    WHERE l.kind = 'label' AND l.snapshot = $snapshot AND hash(l.value) % $parts = $part
),
shared AS (
    SELECT value
    FROM labels_of_part
    GROUP BY value
    HAVING count(*) >= 2 OR bool_or(qid NOT LIKE 'Q%')
),
carriers AS (
    SELECT l.value, l.qid LIKE 'Q%' AS item, coalesce(e.n_sitelinks, 0) AS sitelinks
    FROM labels_of_part AS l
    SEMI JOIN shared AS s ON s.value = l.value
    LEFT JOIN entities AS e ON e.qid = l.qid AND e.snapshot = $snapshot
),
per_count AS (
    SELECT
        value, sitelinks,
        count(*) FILTER (WHERE item) AS items,
        bool_or(NOT item) AS others
    FROM carriers
    GROUP BY value, sitelinks
)
SELECT
    $snapshot AS snapshot,
    value,
    CAST(sum(items) AS BIGINT) AS items,
    max(sitelinks) FILTER (WHERE items > 0) AS top,
    arg_max(items, sitelinks) FILTER (WHERE items > 0) AS at_top
FROM per_count
GROUP BY value
HAVING sum(items) >= 2 OR (sum(items) >= 1 AND bool_or(others));
