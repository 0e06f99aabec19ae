-- name: names_cache_namesakes_table
-- purpose: The empty table of the namesakes of the export's language
--          (sql/export/names_cache_namesakes.sql fills it a snapshot and a part of the
--          labels at a time), in the attached database {{@names}}.
-- params: {{@names}} (the attached database).
CREATE OR REPLACE TABLE {{@names}}.namesakes (
    snapshot VARCHAR,
    value VARCHAR,
    items BIGINT,
    top INTEGER,
    at_top BIGINT
);
