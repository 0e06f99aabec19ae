-- name: entity_names
-- purpose: The labels and aliases of some entities in a language (or its variants), from
--          every Wikidata snapshot, with the aliases that are also a demonym (P1549) marked.
-- params: $qids (VARCHAR[]); $lang (Wikidata language code, e.g. 'en').
WITH demonyms AS (
    SELECT DISTINCT subject AS qid, substr(value, length($lang) + 2) AS term
    FROM statements
    WHERE pid = 'P1549' AND starts_with(value, $lang || ':') AND list_contains($qids, subject)
)
SELECT l.qid, l.value AS term, max(l.kind) AS kind, bool_or(d.term IS NOT NULL) AS demonym
FROM labels AS l
LEFT JOIN demonyms AS d ON d.qid = l.qid AND lower(d.term) = lower(l.value)
WHERE list_contains($qids, l.qid)
  AND (l.lang = $lang OR starts_with(l.lang, $lang || '-')) AND l.kind IN ('label', 'alias')
GROUP BY l.qid, l.value;
