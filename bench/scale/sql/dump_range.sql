-- The Wikidata JSON dump lines of the entities with $lo <= qid < $hi of a generated snapshot,
-- in qid order (bench/scale/dump.py). @statements@, @qualifiers@, @labels@, @sitelinks@ and
-- @entities@ are the snapshot's file lists; values are rebuilt from their value keys.
WITH
s AS (SELECT * FROM read_parquet(@statements@) WHERE subject >= $lo AND subject < $hi),
q AS (SELECT * FROM read_parquet(@qualifiers@) WHERE subject >= $lo AND subject < $hi),
t AS (SELECT * FROM read_parquet(@labels@) WHERE qid >= $lo AND qid < $hi),
l AS (SELECT * FROM read_parquet(@sitelinks@) WHERE qid >= $lo AND qid < $hi),
e AS (SELECT * FROM read_parquet(@entities@) WHERE qid >= $lo AND qid < $hi),
qper AS (
    SELECT statement_id, qualifier_pid,
           string_agg(snak_json(snaktype, qualifier_pid, value_type, datatype, value), ','
                      ORDER BY ordinal) AS js
    FROM q GROUP BY ALL
),
qs AS (
    SELECT statement_id,
           '{' || string_agg('"' || qualifier_pid || '":[' || js || ']', ','
                             ORDER BY qualifier_pid) || '}' AS quals,
           '[' || string_agg('"' || qualifier_pid || '"', ',' ORDER BY qualifier_pid) || ']'
               AS qorder
    FROM qper GROUP BY statement_id
),
sj AS (
    SELECT s.subject, s.pid, s.ordinal,
           '{"mainsnak":' || snak_json(s.snaktype, s.pid, s.value_type, s.datatype, s.value)
           || ',"type":"statement"'
           || coalesce(',"qualifiers":' || qs.quals || ',"qualifiers-order":' || qs.qorder, '')
           || ',"id":"' || s.statement_id || '","rank":"' || s.rank || '"'
           || CASE WHEN s.n_references > 0 THEN ',"references":[' || array_to_string(
                  list_transform(range(s.n_references), lambda i: reference_json(s.statement_id, i)),
                  ',') || ']' ELSE '' END
           || '}' AS j
    FROM s LEFT JOIN qs USING (statement_id)
),
per_pid AS (SELECT subject, pid, string_agg(j, ',' ORDER BY ordinal) AS js FROM sj GROUP BY ALL),
claims AS (
    SELECT subject AS qid,
           '{' || string_agg('"' || pid || '":[' || js || ']', ',' ORDER BY pid) || '}' AS claims
    FROM per_pid GROUP BY subject
),
terms AS (
    SELECT qid,
           '{' || coalesce(string_agg(term_json(lang, value, true), ',' ORDER BY lang)
                           FILTER (WHERE kind = 'label'), '') || '}' AS labels,
           '{' || coalesce(string_agg(term_json(lang, value, true), ',' ORDER BY lang)
                           FILTER (WHERE kind = 'description'), '') || '}' AS descriptions
    FROM t GROUP BY qid
),
alias_lang AS (
    SELECT qid, lang,
           '[' || string_agg(term_json(lang, value, false), ',' ORDER BY ordinal) || ']' AS a
    FROM t WHERE kind = 'alias' GROUP BY ALL
),
aliases AS (
    SELECT qid, '{' || string_agg('"' || lang || '":' || a, ',' ORDER BY lang) || '}' AS aliases
    FROM alias_lang GROUP BY qid
),
links AS (
    SELECT qid,
           '{' || string_agg('"' || site || '":{"site":"' || site || '","title":'
                             || to_json(title) || ',"badges":[]}', ',' ORDER BY site)
               || '}' AS sitelinks
    FROM l GROUP BY qid
)
SELECT CASE WHEN e.redirect_to IS NOT NULL
    THEN '{"type":"' || e.type || '","id":"' || e.qid || '","redirect":"' || e.redirect_to || '"}'
    ELSE '{"type":"' || e.type || '"'
        || CASE WHEN e.datatype IS NOT NULL THEN ',"datatype":"' || e.datatype || '"' ELSE '' END
        || ',"id":"' || e.qid || '","labels":' || coalesce(terms.labels, '{}')
        || ',"descriptions":' || coalesce(terms.descriptions, '{}')
        || ',"aliases":' || coalesce(aliases.aliases, '{}')
        || ',"claims":' || coalesce(claims.claims, '{}')
        || ',"sitelinks":' || coalesce(links.sitelinks, '{}')
        || ',"lastrevid":' || e.lastrevid
        || ',"modified":"' || strftime(e.modified, '%Y-%m-%dT%H:%M:%SZ') || '"}' END AS line
FROM e
LEFT JOIN terms USING (qid) LEFT JOIN aliases USING (qid)
LEFT JOIN claims USING (qid) LEFT JOIN links USING (qid)
ORDER BY e.qid
