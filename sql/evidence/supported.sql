-- name: supported
-- purpose: A classification with EvoWiki's evidence filters as columns. For each date, the
--          Wikipedia snapshot of {{wiki}} dated at or before it is read (`wikipedia_init`,
--          `wikipedia_cutoff`, `wikipedia_current`; NULL when there is none); a value is
--          *mentioned* in a snapshot when a trusted (not weak) mention of it was found on the
--          subject's or the object's article (`mentioned_init/_cutoff/_current`: the values of
--          `all_answers` mentioned). `supported` is
--            stable:    some answer is mentioned in all three snapshots;
--            evolved:   some outdated value is mentioned before the change (the init snapshot,
--                       or the cutoff one if the group changed after the cutoff), if there is
--                       one, and some latest value is mentioned at current but not before;
--            uncharted: some answer is mentioned at current but neither at init nor at cutoff;
--            recent:    some answer is mentioned at current but not at init.
--          It is NULL, and `supported_reason` says why (NULL when `supported` is known), for
--          retracted and ambiguous groups ('… groups are not judged'); when a date the level
--          compares has no snapshot of the wiki at or before it ('no enwiki snapshot at or
--          before the init date (…); the earliest is …'); when such a snapshot has no evidence
--          built (it is not in {{built}}); and when nothing is mentioned at current and the
--          subject has no article in the current snapshot ('the subject has no page in …';
--          linked through the sitelinks of any Wikidata snapshot, as the evidence build does).
--          `evidence` is the golden context of the first latest value mentioned at current.
-- params: {{build}} the classification build's Parquet files (a glob relative to the store
--         root: the catalog macro kgdiff_store_files reads it); {{init}}, {{cutoff}},
--         {{current}} its dates ('YYYY-MM-DD'); {{wiki}} (e.g. 'enwiki'); {{built}} the names
--         of the Wikipedia snapshots with evidence. Reads the views `evidence`,
--         `wikipedia_snapshots`, `pages` and `sitelinks`.
WITH
wp AS (SELECT name, date FROM wikipedia_snapshots WHERE wiki = {{wiki}}),
chosen AS (
    SELECT
        max_by(name, date) FILTER (WHERE date <= CAST({{init}} AS DATE)) AS w_init,
        max_by(name, date) FILTER (WHERE date <= CAST({{cutoff}} AS DATE)) AS w_cutoff,
        max_by(name, date) FILTER (WHERE date <= CAST({{current}} AS DATE)) AS w_current,
        min_by(name, date) AS w_first,
        min(date) AS w_first_date
    FROM wp
),
trusted AS (
    SELECT snapshot, subject, pid, object_qid AS value,
           min_by({'title': title, 'revision_id': revision_id, 'sentence': sentence,
                   'page_role': page_role, 'section': section}, sentence_index) AS context
    FROM evidence
    WHERE NOT weak AND snapshot IN (SELECT unnest([w_init, w_cutoff, w_current]) FROM chosen)
    GROUP BY ALL
),
classified AS (SELECT * FROM read_parquet(kgdiff_store_files([{{build}}]))),
answer AS (
    SELECT c.subject, c.pid, unnest(c.all_answers) AS value FROM classified AS c
),
marked AS (
    SELECT a.subject, a.pid,
           list(a.value) FILTER (WHERE i.value IS NOT NULL) AS m_init,
           list(a.value) FILTER (WHERE k.value IS NOT NULL) AS m_cutoff,
           list(a.value) FILTER (WHERE n.value IS NOT NULL) AS m_current,
           list({'value': a.value, 'context': n.context}) FILTER (WHERE n.value IS NOT NULL)
               AS contexts
    FROM answer AS a CROSS JOIN chosen AS w
    LEFT JOIN trusted AS i
      ON i.snapshot = w.w_init AND i.subject = a.subject AND i.pid = a.pid AND i.value = a.value
    LEFT JOIN trusted AS k
      ON k.snapshot = w.w_cutoff AND k.subject = a.subject AND k.pid = a.pid
     AND k.value = a.value
    LEFT JOIN trusted AS n
      ON n.snapshot = w.w_current AND n.subject = a.subject AND n.pid = a.pid
     AND n.value = a.value
    GROUP BY a.subject, a.pid
),
current_pages AS (
    SELECT DISTINCT l.qid
    FROM pages AS p JOIN sitelinks AS l ON l.site = p.wiki AND l.title = p.title
    WHERE p.snapshot = (SELECT w_current FROM chosen) AND p.namespace = 0
      AND p.redirect IS NULL AND NOT coalesce(p.text_deleted, FALSE) AND l.site = {{wiki}}
),
sets AS (
    SELECT c.*, w.*,
           coalesce(m.m_init, []) AS mentioned_init,
           coalesce(m.m_cutoff, []) AS mentioned_cutoff,
           coalesce(m.m_current, []) AS mentioned_current,
           m.contexts,
           CASE WHEN c.changed_after_cutoff THEN coalesce(m.m_cutoff, [])
                ELSE coalesce(m.m_init, []) END AS mentioned_before,
           p.qid IS NOT NULL AS has_page,
           -- the dates whose snapshots the level's filter compares, earliest first
           CASE c.level
               WHEN 'stable' THEN ['init', 'cutoff', 'current']
               WHEN 'uncharted' THEN ['init', 'cutoff', 'current']
               WHEN 'recent' THEN ['init', 'current']
               WHEN 'evolved'
                   THEN [CASE WHEN c.changed_after_cutoff THEN 'cutoff' ELSE 'init' END, 'current']
           END AS needs
    FROM classified AS c CROSS JOIN chosen AS w
    LEFT JOIN marked AS m ON m.subject = c.subject AND m.pid = c.pid
    LEFT JOIN current_pages AS p ON p.qid = c.subject
),
reads AS (
    SELECT *,
           list_transform(needs, lambda d: {
               'date': d,
               'day': CASE d WHEN 'init' THEN {{init}} WHEN 'cutoff' THEN {{cutoff}}
                      ELSE {{current}} END,
               'snapshot': CASE d WHEN 'init' THEN w_init WHEN 'cutoff' THEN w_cutoff
                           ELSE w_current END
           }) AS snapshots_read
    FROM sets
),
gaps AS (
    SELECT *,
           list_filter(snapshots_read, lambda r: r.snapshot IS NULL)[1] AS missing,
           list_filter(snapshots_read, lambda r: NOT list_contains(CAST({{built}} AS VARCHAR[]),
                                                                   r.snapshot))[1] AS unbuilt
    FROM reads
),
reasoned AS (
    SELECT *,
        CASE
            WHEN needs IS NULL THEN level || ' groups are not judged'
            WHEN missing IS NOT NULL
                THEN format('no {} snapshot at or before the {} date ({}); the earliest is {} ({})',
                            {{wiki}}, missing.date, missing.day, w_first, w_first_date)
            WHEN unbuilt IS NOT NULL
                THEN format('no evidence built for {}: run ''kgdiff evidence build {}''',
                            unbuilt.snapshot, unbuilt.snapshot)
            WHEN NOT has_page AND len(mentioned_current) = 0
                THEN format('the subject has no page in {}', w_current)
        END AS supported_reason
    FROM gaps
)
SELECT * EXCLUDE (w_init, w_cutoff, w_current, w_first, w_first_date, contexts,
                  mentioned_before, has_page, needs, snapshots_read, missing, unbuilt,
                  supported_reason),
    w_init AS wikipedia_init, w_cutoff AS wikipedia_cutoff, w_current AS wikipedia_current,
    CASE WHEN supported_reason IS NULL THEN
        CASE level
            WHEN 'stable'
                THEN len(list_intersect(list_intersect(mentioned_init, mentioned_cutoff),
                                        mentioned_current)) > 0
            WHEN 'evolved'
                THEN (len(outdated) = 0 OR len(list_intersect(outdated, mentioned_before)) > 0)
                 AND len(list_filter(latest, lambda v: list_contains(mentioned_current, v)
                                              AND NOT list_contains(mentioned_before, v))) > 0
            WHEN 'uncharted'
                THEN len(list_filter(all_answers, lambda v: list_contains(mentioned_current, v)
                                                   AND NOT list_contains(mentioned_init, v)
                                                   AND NOT list_contains(mentioned_cutoff, v))) > 0
            WHEN 'recent'
                THEN len(list_filter(all_answers, lambda v: list_contains(mentioned_current, v)
                                                   AND NOT list_contains(mentioned_init, v))) > 0
        END
    END AS supported,
    supported_reason,
    list_filter(contexts, lambda x: list_contains(latest, x.value))[1].context AS evidence
FROM reasoned;
