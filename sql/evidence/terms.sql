-- name: terms
-- purpose: The names a page may use for each target entity of `evidence_candidates`: its
--          labels and aliases in the wiki's language or its variants (en-gb, zh-hans…) from
--          every Wikidata snapshot (`kind` is 'label' if the name was a label in any of them),
--          with the aliases that are also a demonym of the entity (P1549 in that language)
--          marked, so they are not trusted alone.
-- params: $lang (Wikidata language code, e.g. 'en'); reads the temporary table
--         evidence_candidates(target).
WITH targets AS (SELECT DISTINCT target AS qid FROM evidence_candidates),
demonyms AS (
    SELECT DISTINCT subject AS qid, substr(value, length($lang) + 2) AS term
    FROM statements
    WHERE pid = 'P1549' AND starts_with(value, $lang || ':')
      AND subject IN (SELECT qid FROM targets)
)
SELECT l.qid, l.value AS term, max(l.kind) AS kind,
       bool_or(d.term IS NOT NULL) AS demonym
FROM labels AS l
SEMI JOIN targets AS t ON t.qid = l.qid
LEFT JOIN demonyms AS d ON d.qid = l.qid AND lower(d.term) = lower(l.value)
WHERE (l.lang = $lang OR starts_with(l.lang, $lang || '-')) AND l.kind IN ('label', 'alias')
GROUP BY l.qid, l.value;
