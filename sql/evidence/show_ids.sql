-- name: show_ids
-- purpose: What the store knows of a subject (and a property) asked about by
--          `kgdiff evidence show`: whether each id is in any Wikidata snapshot (an entity row,
--          or a statement using it), the item the subject redirects to in the latest snapshot
--          that has it (a merge), and how many item-valued, non-deprecated statements of the
--          subject (with that property) any snapshot holds: the facts evidence is built for.
-- params: $qid (the subject, e.g. 'Q42'); $pid (a property, or NULL for every one).
SELECT
    EXISTS (SELECT 1 FROM entities WHERE qid = $qid)
        OR EXISTS (SELECT 1 FROM statements WHERE subject = $qid) AS subject_known,
    CAST($pid AS VARCHAR) IS NULL
        OR EXISTS (SELECT 1 FROM entities WHERE qid = $pid)
        OR EXISTS (SELECT 1 FROM statements WHERE pid = $pid) AS property_known,
    (
        SELECT max_by(e.redirect_to, s.date)
        FROM entities AS e JOIN snapshots AS s ON s.name = e.snapshot
        WHERE e.qid = $qid
    ) AS redirect_to,
    (
        SELECT count(*) FROM statements
        WHERE subject = $qid AND (CAST($pid AS VARCHAR) IS NULL OR pid = $pid)
          AND object_qid IS NOT NULL AND rank <> 'deprecated' AND subject <> object_qid
    ) AS facts;
