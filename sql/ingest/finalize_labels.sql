-- name: finalize_labels
-- purpose: Publish the labels table of a snapshot (labels, descriptions, aliases and lexeme
--          lemmas in every language; alias order in `ordinal`), sorted by qid: the rows of
--          one bucket (a range of qids; see kgdiff/store/buckets.py).
-- params: {{label_parts}} list of label part files; {{out}} path of the Parquet file to write;
--         {{lo}} / {{hi}} the bucket's qid range, lo inclusive, hi exclusive (NULL: unbounded).
COPY (
    SELECT qid, kind, lang, value, ordinal
    FROM read_parquet({{label_parts}})
    WHERE ({{lo}} IS NULL OR qid >= {{lo}}) AND ({{hi}} IS NULL OR qid < {{hi}})
    ORDER BY qid, kind, lang, ordinal
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 500000);
