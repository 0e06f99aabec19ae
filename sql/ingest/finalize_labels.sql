-- name: finalize_labels
-- purpose: Publish the labels table of a snapshot: one row per label, description, alias
--          and lexeme lemma in every language, exploded from the raw JSON maps, sorted by qid.
-- params: {{entity_parts}} list of entity part files; {{out}} path of the Parquet file to write.
COPY (
    WITH parts AS (
        SELECT qid, labels_json, descriptions_json, aliases_json, lemmas_json
        FROM read_parquet({{entity_parts}})
    ),
    singles AS (
        SELECT qid, kind, unnest(map_entries(
            json_transform(j, '"MAP(VARCHAR, STRUCT(value VARCHAR))"')
        )) AS entry
        FROM parts
        CROSS JOIN LATERAL (VALUES
            ('label', labels_json), ('description', descriptions_json), ('lemma', lemmas_json)
        ) AS maps(kind, j)
        WHERE j IS NOT NULL
    ),
    alias_lists AS (
        SELECT qid, unnest(map_entries(
            json_transform(aliases_json, '"MAP(VARCHAR, STRUCT(value VARCHAR)[])"')
        )) AS entry
        FROM parts
        WHERE aliases_json IS NOT NULL
    )
    SELECT qid, kind, entry.key AS lang, entry.value.value AS value, 0 AS ordinal
    FROM singles
    UNION ALL
    SELECT qid, 'alias' AS kind, entry.key AS lang, a.alias.value AS value, a.ordinal
    FROM alias_lists
    CROSS JOIN LATERAL (
        SELECT unnest(entry.value) AS alias, generate_subscripts(entry.value, 1) - 1 AS ordinal
    ) AS a
    ORDER BY qid, kind, lang, ordinal
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 500000);
