-- name: finalize_entities
-- purpose: Publish the entities table of a snapshot from its part files: English label,
--          description and aliases pulled out of the raw multilingual JSON, P31 types from
--          the statements, sorted by qid.
-- params: {{entity_parts}} list of entity part files; {{statement_parts}} list of statement
--         part files; {{out}} path of the Parquet file to write.
COPY (
    WITH parts AS (
        SELECT * FROM read_parquet({{entity_parts}})
    ),
    types AS (
        SELECT subject, list(object_qid ORDER BY ordinal) AS p31
        FROM read_parquet({{statement_parts}})
        WHERE pid = 'P31' AND rank <> 'deprecated' AND object_qid IS NOT NULL
        GROUP BY subject
    )
    SELECT
        p.qid,
        p.type,
        p.datatype,
        json_extract_string(p.labels_json, '$.en.value') AS label_en,
        json_extract_string(p.descriptions_json, '$.en.value') AS description_en,
        coalesce(json_extract_string(p.aliases_json, '$.en[*].value'), []) AS aliases_en,
        coalesce(t.p31, []) AS p31,
        coalesce(json_array_length(json_keys(p.labels_json)), 0)::INTEGER AS n_labels,
        coalesce(json_array_length(json_keys(p.sitelinks_json)), 0)::INTEGER AS n_sitelinks,
        p.n_statements,
        p.lastrevid,
        try_cast(p.modified AS TIMESTAMP) AS modified,
        p.redirect_to,
        p.source_line
    FROM parts AS p
    LEFT JOIN types AS t ON t.subject = p.qid
    ORDER BY p.qid, p.source_line
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000);
