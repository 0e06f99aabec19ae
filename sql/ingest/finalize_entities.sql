-- name: finalize_entities
-- purpose: Publish the entities table of a snapshot from its part files, with the P31
--          types (non-deprecated, in statement order) taken from the statements; sorted by qid:
--          the entities of one bucket (a range of qids; see kgdiff/store/buckets.py).
-- params: {{entity_parts}} list of entity part files; {{statement_parts}} list of statement
--         part files; {{out}} path of the Parquet file to write; {{lo}} / {{hi}} the
--         bucket's qid range, lo inclusive, hi exclusive (NULL: unbounded).
COPY (
    WITH types AS (
        SELECT subject, list(object_qid ORDER BY ordinal) AS p31
        FROM read_parquet({{statement_parts}})
        WHERE pid = 'P31' AND rank <> 'deprecated' AND object_qid IS NOT NULL
            AND ({{lo}} IS NULL OR subject >= {{lo}}) AND ({{hi}} IS NULL OR subject < {{hi}})
        GROUP BY subject
    )
    SELECT
        p.qid,
        p.type,
        p.datatype,
        p.label_en,
        p.description_en,
        coalesce(p.aliases_en, []) AS aliases_en,
        coalesce(t.p31, []) AS p31,
        p.n_labels,
        p.n_sitelinks,
        p.n_statements,
        p.lastrevid,
        try_cast(p.modified AS TIMESTAMP) AS modified,
        p.redirect_to,
        p.source_line
    FROM read_parquet({{entity_parts}}) AS p
    LEFT JOIN types AS t ON t.subject = p.qid
    WHERE ({{lo}} IS NULL OR p.qid >= {{lo}}) AND ({{hi}} IS NULL OR p.qid < {{hi}})
    ORDER BY p.qid, p.source_line
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 100000);
