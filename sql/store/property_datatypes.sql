-- name: property_datatypes
-- purpose: The datatype of each property, as the snaks of every snapshot of the store record
--          it (the most frequent one): dumps older than 2014 record no datatype on their snaks,
--          and Wikidata's RDF writes a value by its property's datatype (a Commons file or a
--          URL as an IRI, an external id or a string as a literal).
-- params: {{statement_files}}, {{qualifier_files}}, {{entity_files}}: Parquet files of the
--         statements, qualifiers and entities tables of the store's snapshots.
WITH snaks AS (
    SELECT pid, datatype
    FROM read_parquet({{statement_files}})
    WHERE datatype IS NOT NULL
    UNION ALL
    SELECT qualifier_pid AS pid, datatype
    FROM read_parquet({{qualifier_files}})
    WHERE datatype IS NOT NULL
    UNION ALL
    SELECT qid AS pid, datatype
    FROM read_parquet({{entity_files}})
    WHERE type = 'property' AND datatype IS NOT NULL
)
SELECT pid, mode(datatype) AS datatype
FROM snaks
GROUP BY pid
