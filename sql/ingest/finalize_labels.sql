-- name: finalize_labels
-- purpose: Publish the labels table of a snapshot (labels, descriptions, aliases and lexeme
--          lemmas in every language; alias order in `ordinal`), sorted by qid.
-- params: {{label_parts}} list of label part files; {{out}} path of the Parquet file to write.
COPY (
    SELECT qid, kind, lang, value, ordinal
    FROM read_parquet({{label_parts}})
    ORDER BY qid, kind, lang, ordinal
) TO {{out}} (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 500000);
