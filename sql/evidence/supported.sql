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
--            recent:    some answer is mentioned at current but not at init;
--          NULL for retracted and ambiguous groups, and when a snapshot it needs is missing.
--          `evidence` is the golden context of the first latest value mentioned at current.
-- params: {{build}} the classification build's Parquet files (a glob relative to the store
--         root: the catalog macro kgdiff_store_files reads it); {{init}}, {{cutoff}},
--         {{current}} its dates ('YYYY-MM-DD'); {{wiki}} (e.g. 'enwiki'). Reads the views
--         `evidence` and `wikipedia_snapshots`.
WITH
wp AS (SELECT name, date FROM wikipedia_snapshots WHERE wiki = {{wiki}}),
chosen AS (
    SELECT
        max_by(name, date) FILTER (WHERE date <= CAST({{init}} AS DATE)) AS w_init,
        max_by(name, date) FILTER (WHERE date <= CAST({{cutoff}} AS DATE)) AS w_cutoff,
        max_by(name, date) FILTER (WHERE date <= CAST({{current}} AS DATE)) AS w_current
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
sets AS (
    SELECT c.*, w.*,
           coalesce(m.m_init, []) AS mentioned_init,
           coalesce(m.m_cutoff, []) AS mentioned_cutoff,
           coalesce(m.m_current, []) AS mentioned_current,
           m.contexts,
           CASE WHEN c.changed_after_cutoff THEN coalesce(m.m_cutoff, [])
                ELSE coalesce(m.m_init, []) END AS mentioned_before,
           CASE WHEN c.changed_after_cutoff THEN w.w_cutoff ELSE w.w_init END AS w_before
    FROM classified AS c CROSS JOIN chosen AS w
    LEFT JOIN marked AS m ON m.subject = c.subject AND m.pid = c.pid
)
SELECT * EXCLUDE (w_init, w_cutoff, w_current, contexts, mentioned_before, w_before),
    w_init AS wikipedia_init, w_cutoff AS wikipedia_cutoff, w_current AS wikipedia_current,
    CASE
        WHEN level = 'stable' AND w_init IS NOT NULL AND w_cutoff IS NOT NULL
             AND w_current IS NOT NULL
            THEN len(list_intersect(list_intersect(mentioned_init, mentioned_cutoff),
                                    mentioned_current)) > 0
        WHEN level = 'evolved' AND w_before IS NOT NULL AND w_current IS NOT NULL
            THEN (len(outdated) = 0 OR len(list_intersect(outdated, mentioned_before)) > 0)
             AND len(list_filter(latest, lambda v: list_contains(mentioned_current, v)
                                          AND NOT list_contains(mentioned_before, v))) > 0
        WHEN level = 'uncharted' AND w_init IS NOT NULL AND w_cutoff IS NOT NULL
             AND w_current IS NOT NULL
            THEN len(list_filter(all_answers, lambda v: list_contains(mentioned_current, v)
                                               AND NOT list_contains(mentioned_init, v)
                                               AND NOT list_contains(mentioned_cutoff, v))) > 0
        WHEN level = 'recent' AND w_init IS NOT NULL AND w_current IS NOT NULL
            THEN len(list_filter(all_answers, lambda v: list_contains(mentioned_current, v)
                                               AND NOT list_contains(mentioned_init, v))) > 0
    END AS supported,
    list_filter(contexts, lambda x: list_contains(latest, x.value))[1].context AS evidence
FROM sets;
