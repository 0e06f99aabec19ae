-- name: write_pages
-- purpose: Write a range of a classification's groups as the REST service pages them: sorted
--          by subject and property, labelled, in small Parquet files (row groups of 2,048 rows
--          with statistics, 4 per file) named part-N in the order of their keys. A build is
--          written a subject range at a time (kgdiff/query/pages.py): one sort of every group
--          ran out of a work process's memory at three snapshots of 25 M statements.
-- params: {{out}} the (temporary) folder to write into; {{lo}}, {{hi}} the range's subjects
--         (lo <= subject < hi). Reads the temporary view `kgdiff_page_rows` (the build's rows
--         as `classify/export_rows` labels them).
COPY (
    SELECT
        subject, pid, level, change_kind, change_nature, changed_after_cutoff, latest, outdated,
        all_answers, ambiguous_reason, record_level, valid_level, backfilled, not_covered_in,
        subject_label, pid_label, latest_labels, outdated_labels, all_answers_labels
    FROM kgdiff_page_rows
    WHERE subject >= {{lo}} AND subject < {{hi}}
    ORDER BY subject, pid
) TO {{out}} (
    FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 2048, ROW_GROUPS_PER_FILE 4,
    FILENAME_PATTERN 'part-{i}'
);
