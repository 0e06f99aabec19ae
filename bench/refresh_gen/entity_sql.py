"""Wikidata entity JSON from a snapshot's rows, made by DuckDB (the inverse of kgdiff's row
builder, at the speed a benchmark of tens of millions of statements needs).

One query gives ``(qid, text)`` for every entity of a snapshot of the catalog whose id is in
a range (``$in(column)`` stands for the test), ordered by id: labels, descriptions, aliases
and sitelinks; each statement with its main snak (its value rebuilt from the value key), id,
rank, qualifiers (in their order) and as many empty references as it counts; ``lastrevid``
and ``modified``; a redirect as ``{"type", "id", "redirect"}``. kgdiff's ingest of such a
text gives rows of the same shape; the benchmark compares a refresh with an ingest of these
texts, not with the generator's rows.
"""

from __future__ import annotations

URI = "http://www.wikidata.org/entity/"

DATAVALUE = f"""
CREATE OR REPLACE TEMP MACRO refresh_gen_datavalue(vt, v) AS CASE vt
    WHEN 'wikibase-entityid' THEN json_object(
        'value', json_object(
            'entity-type', CASE left(v, 1) WHEN 'P' THEN 'property' WHEN 'L' THEN 'lexeme'
                           ELSE 'item' END,
            'numeric-id', CAST(substr(v, 2) AS BIGINT), 'id', v),
        'type', vt)
    WHEN 'time' THEN json_object(
        'value', json_object(
            'time', split_part(v, '|', 1), 'timezone', 0, 'before', 0, 'after', 0,
            'precision', CAST(split_part(v, '|', 2) AS INTEGER),
            'calendarmodel', '{URI}' || split_part(v, '|', 3)),
        'type', vt)
    WHEN 'quantity' THEN json_object(
        'value', json_object(
            'amount', regexp_extract(v, '^(.*)\\|[^|]*$', 1),
            'unit', CASE WHEN regexp_extract(v, '\\|([^|]*)$', 1) = '1' THEN '1'
                         ELSE '{URI}' || regexp_extract(v, '\\|([^|]*)$', 1) END),
        'type', vt)
    WHEN 'monolingualtext' THEN json_object(
        'value', json_object('text', substr(v, strpos(v, ':') + 1),
                             'language', split_part(v, ':', 1)),
        'type', vt)
    WHEN 'globecoordinate' THEN json_object(
        'value', json_object(
            'latitude', CAST(split_part(v, ',', 1) AS DOUBLE),
            'longitude', CAST(split_part(v, ',', 2) AS DOUBLE),
            'altitude', NULL, 'precision', 0.000001,
            'globe', '{URI}' || split_part(v, ',', 3)),
        'type', vt)
    ELSE json_object('value', v, 'type', vt)
END
"""

SNAK = """
CREATE OR REPLACE TEMP MACRO refresh_gen_snak(snaktype, pid, datatype, vt, v) AS CASE
    WHEN snaktype = 'value' THEN json_object(
        'snaktype', snaktype, 'property', pid, 'datatype', datatype,
        'datavalue', refresh_gen_datavalue(vt, v))
    ELSE json_object('snaktype', snaktype, 'property', pid, 'datatype', datatype)
END
"""

MACROS = [DATAVALUE, SNAK]

ENTITY_TEXTS = """
WITH
qualifier_lists AS (
    SELECT statement_id, qualifier_pid, min(ordinal) AS first,
           to_json(list(
               refresh_gen_snak(snaktype, qualifier_pid, datatype, value_type, value)
               ORDER BY ordinal)) AS snaks
    FROM qualifiers WHERE snapshot = $s AND $in(subject)
    GROUP BY statement_id, qualifier_pid
),
statement_qualifiers AS (
    SELECT statement_id,
           to_json(map_from_entries(list({'key': qualifier_pid, 'value': snaks}))) AS qualifiers,
           to_json(list(qualifier_pid ORDER BY first)) AS qualifiers_order
    FROM qualifier_lists GROUP BY statement_id
),
statement_texts AS (
    SELECT st.subject, st.pid, st.ordinal, json_object(
        'mainsnak', refresh_gen_snak(st.snaktype, st.pid, st.datatype, st.value_type, st.value),
        'type', 'statement', 'id', st.statement_id, 'rank', st.rank,
        'qualifiers', coalesce(q.qualifiers, json_object()),
        'qualifiers-order', coalesce(q.qualifiers_order, json_array()),
        'references', CAST('[' || array_to_string(
            list_transform(range(st.n_references), lambda i: '{}'), ',') || ']' AS JSON)
    ) AS text
    FROM statements AS st
    LEFT JOIN statement_qualifiers AS q ON q.statement_id = st.statement_id
    WHERE st.snapshot = $s AND $in(st.subject)
),
claim_lists AS (
    SELECT subject, pid, to_json(list(text ORDER BY ordinal)) AS claims
    FROM statement_texts GROUP BY subject, pid
),
claims AS (
    SELECT subject, to_json(map_from_entries(list({'key': pid, 'value': claims}))) AS claims
    FROM claim_lists GROUP BY subject
),
alias_lists AS (
    SELECT qid, lang, to_json(list(json_object('language', lang, 'value', value)
                                   ORDER BY ordinal)) AS aliases
    FROM labels WHERE snapshot = $s AND $in(qid) AND kind = 'alias' GROUP BY qid, lang
),
terms AS (
    SELECT qid,
        to_json(map_from_entries(list({'key': lang, 'value': json_object(
            'language', lang, 'value', value)}) FILTER (kind = 'label'))) AS labels,
        to_json(map_from_entries(list({'key': lang, 'value': json_object(
            'language', lang, 'value', value)}) FILTER (kind = 'description'))) AS descriptions
    FROM labels
    WHERE snapshot = $s AND $in(qid) AND kind IN ('label', 'description') GROUP BY qid
),
aliases AS (
    SELECT qid, to_json(map_from_entries(list({'key': lang, 'value': aliases}))) AS aliases
    FROM alias_lists GROUP BY qid
),
links AS (
    SELECT qid, to_json(map_from_entries(list({'key': site, 'value': json_object(
        'site', site, 'title', title, 'badges', to_json(badges))}))) AS sitelinks
    FROM sitelinks WHERE snapshot = $s AND $in(qid) GROUP BY qid
)
SELECT e.qid, e.lastrevid, e.modified, e.redirect_to,
    CASE WHEN e.redirect_to IS NOT NULL
        THEN CAST(json_object('type', e.type, 'id', e.qid, 'redirect', e.redirect_to) AS VARCHAR)
        ELSE CAST(json_object(
            'type', e.type, 'id', e.qid, 'datatype', e.datatype,
            'labels', coalesce(t.labels, json_object()),
            'descriptions', coalesce(t.descriptions, json_object()),
            'aliases', coalesce(a.aliases, json_object()),
            'claims', coalesce(c.claims, json_object()),
            'sitelinks', coalesce(l.sitelinks, json_object()),
            'lastrevid', e.lastrevid,
            'modified', strftime(e.modified, '%Y-%m-%dT%H:%M:%SZ')
        ) AS VARCHAR)
    END AS text
FROM entities AS e
LEFT JOIN terms AS t ON t.qid = e.qid
LEFT JOIN aliases AS a ON a.qid = e.qid
LEFT JOIN claims AS c ON c.subject = e.qid
LEFT JOIN links AS l ON l.qid = e.qid
WHERE e.snapshot = $s AND $in(e.qid)
ORDER BY e.qid
"""
