-- name: fact_evidence
-- purpose: The evidence of one subject's facts in one Wikipedia snapshot (`kgdiff evidence
--          show`). A fact is an item-valued, non-deprecated statement of the subject in any
--          Wikidata snapshot, as `candidates` takes them. One row per fact and page that
--          mentions it (`page_role` 'subject': the subject's article names the object;
--          'object': the object's article names the subject), with the first mentioning
--          sentence (the golden context) and the page and revision (the golden document); a
--          fact mentioned nowhere gets one row, `mentioned` false, with the subject's article
--          (the page searched) if it has one. Labels are the latest in the wiki's language;
--          `object_named` tells whether the object has a name (label or alias) in it or its
--          variants, as `terms` takes them: without one, the article cannot mention it.
--          Ordered by property and object number, the subject's article first.
-- params: $snapshot (Wikipedia snapshot name); $qid (the subject); $pid (a property, or NULL
--         for every one); $page_id (the subject's article in the snapshot, NULL if none);
--         $lang (Wikidata language code of the wiki, e.g. 'en').
WITH
facts AS (
    SELECT DISTINCT subject, pid, object_qid FROM statements
    WHERE subject = $qid AND (CAST($pid AS VARCHAR) IS NULL OR pid = $pid)
      AND object_qid IS NOT NULL AND rank <> 'deprecated' AND subject <> object_qid
),
names AS (
    SELECT l.qid, max_by(l.value, s.date) FILTER (WHERE l.kind = 'label' AND l.lang = $lang)
               AS label
    FROM labels AS l JOIN snapshots AS s ON s.name = l.snapshot
    WHERE l.kind IN ('label', 'alias') AND (l.lang = $lang OR starts_with(l.lang, $lang || '-'))
      AND l.qid IN (SELECT object_qid FROM facts UNION SELECT pid FROM facts UNION SELECT $qid)
    GROUP BY l.qid
),
found AS (
    SELECT e.* FROM evidence AS e SEMI JOIN facts AS f USING (subject, pid, object_qid)
    WHERE e.snapshot = $snapshot AND e.subject = $qid
),
searched AS (
    SELECT 'subject' AS page_role, page_id, title, revision_id, timestamp FROM pages
    WHERE snapshot = $snapshot AND page_id = CAST($page_id AS BIGINT)
),
unmentioned AS (
    SELECT f.subject, f.pid, f.object_qid, FALSE AS mentioned, s.*
    FROM facts AS f ANTI JOIN found AS e USING (subject, pid, object_qid)
    LEFT JOIN searched AS s ON TRUE
),
rows AS (
    SELECT subject, pid, object_qid, TRUE AS mentioned, page_role, page_id, title, revision_id,
           timestamp, term, weak, weak_reason, section, sentence, mentions
    FROM found
    UNION ALL BY NAME
    SELECT * FROM unmentioned
)
SELECT w.name AS snapshot, w.wiki, r.subject, ns.label AS subject_label, r.pid,
       np.label AS property_label, r.object_qid, no.label AS object_label,
       no.qid IS NOT NULL AS object_named, r.mentioned,
       r.weak, r.weak_reason, r.page_role, r.section, r.term, r.sentence, r.mentions,
       r.title, r.page_id, r.revision_id, r.timestamp
FROM rows AS r
JOIN wikipedia_snapshots AS w ON w.name = $snapshot
LEFT JOIN names AS ns ON ns.qid = r.subject
LEFT JOIN names AS np ON np.qid = r.pid
LEFT JOIN names AS no ON no.qid = r.object_qid
ORDER BY TRY_CAST(substr(r.pid, 2) AS BIGINT), r.pid,
         TRY_CAST(substr(r.object_qid, 2) AS BIGINT), r.object_qid, r.page_role DESC;
