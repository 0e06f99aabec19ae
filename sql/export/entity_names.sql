-- name: entity_names
-- purpose: For the benchmark export: each entity id of `kgdiff_name_ids` that has a label in
--          $lang, with that label (as the catalog macro `entity_labels` chooses it: the snapshot
--          $snapshot first, then the nearest earlier one, then the nearest later one), its
--          aliases in $lang of the same snapshot in their order, with their words, and what
--          kgdiff/export/words/alias_names.py reads to tell which of them name it
--          (docs/benchmark-export.md#answers-and-aliases): the words of its labels in every
--          language, of its label in $lang, of all its other names (labels, and aliases in other
--          languages) and those other names of two words or more whose words are all words of
--          its aliases. Words: the text in lower case without accents or apostrophes, split at
--          every character that is not a letter or a digit. An alias of one snapshot alone is
--          left out: when the snapshots just before and just after the label's (by date) both
--          hold the entity and neither lists the alias, it is taken for vandalism that was
--          reverted. Then its classes in that snapshot (its instance-of values (P31) in their
--          order, then the values of its non-deprecated subclass-of statements (P279), each
--          once), its number of sitelinks in that snapshot, whether that snapshot gives it a
--          coordinate location (P625: a place), and whether another item of that snapshot has
--          the same label in $lang with at least as many sitelinks (the label names that item
--          first: Alexandria, Virginia beside Alexandria, Egypt). Ids without a label are
--          absent; an entity without aliases has nulls for them and their words. Only the ids
--          from $first to $last (in text order) are named: the caller names many ids range by
--          range, each query reading that range of every table and file (all of them sorted by
--          id) and holding only its range's rows. Sorted by id.
--          The labels and aliases in $lang, the other names of entities with aliases in it and
--          the labels many items share come from the tables of {{@names}}, the attached
--          database of $lang built beforehand (kgdiff/export/words/names_cache.py).
-- params: $snapshot (VARCHAR, NULL = the latest snapshot); $lang (VARCHAR); $first, $last
--         (VARCHAR: the first and the last id of the range named); {{@names}} (the attached
--         database). Reads the ids to name from the relation `kgdiff_name_ids(qid)`
--         the caller registers (kgdiff/export/words/name_ids.py: an Arrow table, so that
--         millions of ids are never a list of Python strings), the views `entities`,
--         `statements` and `snapshots` and the tables `in_lang`, `other_names` and `namesakes` of
--         {{@names}}.
WITH
-- each id's label as the macro `entity_labels` (sql/labels/entity_labels.sql) chooses it, from
-- the labels in $lang kept for the export: the snapshot $snapshot first, then the nearest
-- earlier one, then the nearest later one
anchor AS (
    SELECT coalesce(
        (SELECT s.date FROM snapshots AS s WHERE s.name = $snapshot),
        (SELECT max(s.date) FROM snapshots AS s)
    ) AS day
),
-- the snapshots in the order a label is taken from them (the first that has one)
preference AS (
    SELECT
        s.name,
        row_number() OVER (
            ORDER BY
                CASE WHEN s.name = $snapshot THEN 0 WHEN s.date <= a.day THEN 1 ELSE 2 END,
                abs(s.date - a.day),
                s.name
        ) AS pick
    FROM snapshots AS s
    CROSS JOIN anchor AS a
),
named AS MATERIALIZED (
    SELECT
        l.qid AS id,
        arg_min(l.value, p.pick) AS label,
        arg_min(l.snapshot, p.pick) AS label_snapshot
    FROM {{@names}}.in_lang AS l
    JOIN preference AS p ON p.name = l.snapshot
    WHERE l.kind = 'label' AND l.qid BETWEEN $first AND $last
      AND l.qid IN (SELECT qid FROM kgdiff_name_ids)
    GROUP BY l.qid
),
neighbours AS (
    SELECT
        name,
        lag(name) OVER (ORDER BY date, name) AS before,
        lead(name) OVER (ORDER BY date, name) AS after
    FROM snapshots
),
-- the aliases in $lang of the named entities in every snapshot (their neighbours' too)
in_lang AS MATERIALIZED (
    SELECT l.snapshot, l.qid, l.value, l.ordinal
    FROM {{@names}}.in_lang AS l
    WHERE l.kind = 'alias' AND l.qid BETWEEN $first AND $last
      AND l.qid IN (SELECT id FROM named)
),
found AS (
    SELECT l.qid, l.value, l.ordinal, b.before, b.after
    FROM in_lang AS l
    JOIN named AS n ON n.id = l.qid AND n.label_snapshot = l.snapshot
    JOIN neighbours AS b ON b.name = n.label_snapshot
),
-- the aliases of entities that both neighbouring snapshots hold, and whether either lists it
bracketed AS (
    SELECT f.qid, f.value
    FROM found AS f
    WHERE f.before IS NOT NULL AND f.after IS NOT NULL
      AND EXISTS (
          SELECT 1 FROM entities AS e
          WHERE e.qid = f.qid AND e.snapshot = f.before AND e.qid BETWEEN $first AND $last
      )
      AND EXISTS (
          SELECT 1 FROM entities AS e
          WHERE e.qid = f.qid AND e.snapshot = f.after AND e.qid BETWEEN $first AND $last
      )
      AND NOT EXISTS (
          SELECT 1 FROM in_lang AS o
          WHERE o.qid = f.qid AND o.value = f.value
            AND o.snapshot IN (f.before, f.after)
      )
),
alias_words AS MATERIALIZED (
    SELECT
        f.qid, f.value, f.ordinal,
        list_filter(
            regexp_split_to_array(
                strip_accents(lower(regexp_replace(f.value, '[''’]', '', 'g'))), '[^\p{L}\p{N}]+'
            ),
            lambda w: w <> ''
        ) AS words
    FROM found AS f
    ANTI JOIN bracketed AS v ON v.qid = f.qid AND v.value = f.value
),
-- every other name (a label, or an alias in another language) of the entities with aliases
names_of AS MATERIALIZED (
    SELECT
        qid, kind,
        list_filter(
            regexp_split_to_array(
                strip_accents(lower(regexp_replace(value, '[''’]', '', 'g'))), '[^\p{L}\p{N}]+'
            ),
            lambda w: w <> ''
        ) AS words
    FROM (
        SELECT DISTINCT
            l.qid,
            CASE WHEN l.kind = 'alias' THEN 'alias' WHEN l.lang = $lang THEN 'own' ELSE 'label' END
                AS kind,
            l.value
        FROM {{@names}}.other_names AS l
        JOIN named AS n ON n.id = l.qid AND n.label_snapshot = l.snapshot
        WHERE l.qid BETWEEN $first AND $last AND l.qid IN (SELECT qid FROM alias_words)
    )
),
aliases AS (
    SELECT
        qid,
        list(value ORDER BY ordinal) AS aliases,
        list(words ORDER BY ordinal) AS alias_words
    FROM alias_words
    GROUP BY qid
),
-- per entity: its labels' words (in every language, and in $lang), every other name's words,
-- and the names an alias may have words inserted into (two words or more, each of them a
-- word of its aliases)
other_names AS (
    SELECT
        o.qid,
        list_distinct(flatten(list(o.words) FILTER (WHERE o.kind <> 'alias'))) AS label_words,
        first(o.words) FILTER (WHERE o.kind = 'own') AS own_words,
        list_distinct(flatten(list(o.words))) AS attested,
        list(o.words) FILTER (WHERE len(o.words) > 1 AND list_has_all(v.vocabulary, o.words))
            AS inside
    FROM names_of AS o
    JOIN (
        SELECT qid, list_distinct(flatten(list(words))) AS vocabulary
        FROM alias_words
        GROUP BY qid
    ) AS v ON v.qid = o.qid
    GROUP BY o.qid
),
subclass_of AS (
    SELECT s.subject AS qid, list(DISTINCT s.object_qid ORDER BY s.object_qid) AS p279
    FROM statements AS s
    JOIN named AS n ON n.id = s.subject AND n.label_snapshot = s.snapshot
    WHERE s.pid = 'P279' AND s.object_qid IS NOT NULL AND s.rank <> 'deprecated'
      AND s.subject BETWEEN $first AND $last
    GROUP BY s.subject
),
located AS (
    SELECT DISTINCT s.subject AS qid
    FROM statements AS s
    JOIN named AS n ON n.id = s.subject AND n.label_snapshot = s.snapshot
    WHERE s.pid = 'P625' AND s.snaktype = 'value' AND s.subject BETWEEN $first AND $last
      AND s.snapshot IN (SELECT DISTINCT label_snapshot FROM named)
),
-- each named entity in its label's snapshot: its P31 values, its sitelinks, whether an item
own AS (
    SELECT
        n.id, e.p31,
        coalesce(e.n_sitelinks, 0) AS sitelinks,
        n.id LIKE 'Q%' AS item
    FROM named AS n
    LEFT JOIN entities AS e
      ON e.qid = n.id AND e.snapshot = n.label_snapshot AND e.qid BETWEEN $first AND $last
)
SELECT
    n.id,
    n.label,
    a.aliases,
    a.alias_words,
    o.label_words,
    o.own_words,
    o.attested,
    o.inside,
    list_concat(
        coalesce(e.p31, CAST([] AS VARCHAR[])),
        list_filter(
            coalesce(c.p279, CAST([] AS VARCHAR[])),
            lambda x: NOT list_contains(coalesce(e.p31, CAST([] AS VARCHAR[])), x)
        )
    ) AS classes,
    e.sitelinks,
    p.qid IS NOT NULL AS located,
    -- another item has at least as many sitelinks: the top is another's, or shared, for an
    -- item (which is one of the items counted); any item at the top, for another entity
    coalesce(
        CASE
            WHEN e.item THEN m.items >= 2 AND (e.sitelinks < m.top OR m.at_top >= 2)
            ELSE m.top >= e.sitelinks
        END,
        false
    ) AS outranked
FROM named AS n
JOIN own AS e ON e.id = n.id
LEFT JOIN aliases AS a ON a.qid = n.id
LEFT JOIN other_names AS o ON o.qid = n.id
LEFT JOIN subclass_of AS c ON c.qid = n.id
LEFT JOIN located AS p ON p.qid = n.id
LEFT JOIN {{@names}}.namesakes AS m ON m.snapshot = n.label_snapshot AND m.value = n.label
ORDER BY n.id;
