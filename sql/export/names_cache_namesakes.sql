-- name: names_cache_namesakes
-- purpose: For the benchmark export's names (sql/export/entity_names.sql): per snapshot, each
--          label in the export's language that more than one item carries, or that an item and an entity of
--          another kind (a property) both carry, with how many items carry it, the most
--          sitelinks one of them has in that snapshot and how many of them have that many. A
--          named entity's label "names another item first" when another item of its snapshot
--          has at least as many sitelinks (Alexandria, Virginia beside Alexandria, Egypt): that
--          is told from these figures alone, so the naming queries, which run id range by id
--          range, never read every label of the snapshot again. Kept beside `in_lang`
--          (sql/export/names_cache_in_lang.sql, which it reads) in the attached database
--          {{@names}} of that language.
-- params: {{@names}} (the attached database). Reads the view `entities` and the table
--         `in_lang` of {{@names}}.
CREATE OR REPLACE TABLE {{@names}}.namesakes AS
WITH carriers AS (
    SELECT
        l.snapshot, l.value, l.qid LIKE 'Q%' AS item, coalesce(e.n_sitelinks, 0) AS sitelinks
    FROM {{@names}}.in_lang AS l
    LEFT JOIN entities AS e ON e.qid = l.qid AND e.snapshot = l.snapshot
    WHERE l.kind = 'label'
),
per_count AS (
    SELECT
        snapshot, value, sitelinks,
        count(*) FILTER (WHERE item) AS items,
        bool_or(NOT item) AS others
    FROM carriers
    GROUP BY snapshot, value, sitelinks
)
SELECT
    snapshot,
    value,
    CAST(sum(items) AS BIGINT) AS items,
    max(sitelinks) FILTER (WHERE items > 0) AS top,
    arg_max(items, sitelinks) FILTER (WHERE items > 0) AS at_top
FROM per_count
GROUP BY snapshot, value
HAVING sum(items) >= 2 OR (sum(items) >= 1 AND bool_or(others));
