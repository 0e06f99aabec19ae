-- Macros of the dump lines (bench/scale/dump.py): a snak's datavalue from its value key, a
-- snak, a term, a reference (one P248 "stated in" snak, hashed like real ones).
CREATE OR REPLACE TEMP MACRO entity_uri(id) AS 'http://www.wikidata.org/entity/' || id;
CREATE OR REPLACE TEMP MACRO value_json(value_type, value) AS CASE value_type
    WHEN 'wikibase-entityid' THEN '{"entity-type":"item","numeric-id":' || substr(value, 2)
        || ',"id":"' || value || '"}'
    WHEN 'time' THEN '{"time":"' || split_part(value, '|', 1)
        || '","timezone":0,"before":0,"after":0,"precision":' || split_part(value, '|', 2)
        || ',"calendarmodel":"' || entity_uri(split_part(value, '|', 3)) || '"}'
    WHEN 'quantity' THEN '{"amount":"' || split_part(value, '|', 1) || '","unit":"'
        || CASE WHEN split_part(value, '|', 2) = '1' THEN '1'
                ELSE entity_uri(split_part(value, '|', 2)) END || '"}'
    WHEN 'monolingualtext' THEN '{"text":' || to_json(substr(value, strpos(value, ':') + 1))
        || ',"language":"' || split_part(value, ':', 1) || '"}'
    WHEN 'globecoordinate' THEN '{"latitude":' || split_part(value, ',', 1)
        || ',"longitude":' || split_part(value, ',', 2)
        || ',"altitude":null,"precision":1.0e-6,"globe":"'
        || entity_uri(split_part(value, ',', 3)) || '"}'
    ELSE CAST(to_json(value) AS VARCHAR) END;
CREATE OR REPLACE TEMP MACRO snak_json(snaktype, pid, value_type, datatype, value) AS
    '{"snaktype":"' || snaktype || '","property":"' || pid || '"'
    || CASE WHEN snaktype = 'value' THEN ',"datavalue":{"value":' || value_json(value_type, value)
            || ',"type":"' || value_type || '"},"datatype":"' || datatype || '"' ELSE '' END
    || '}';
CREATE OR REPLACE TEMP MACRO term_json(lang, value, keyed) AS
    CASE WHEN keyed THEN '"' || lang || '":' ELSE '' END
    || '{"language":"' || lang || '","value":' || to_json(value) || '}';
CREATE OR REPLACE TEMP MACRO reference_json(statement_id, i) AS
    '{"hash":"' || lpad(lower(hex(hash(statement_id, i))), 16, '0') || '","snaks":{"P248":['
    || snak_json('value', 'P248', 'wikibase-entityid', 'wikibase-item',
                 'Q' || (1 + hash(statement_id, i) % 1000))
    || ']},"snaks-order":["P248"]}';
