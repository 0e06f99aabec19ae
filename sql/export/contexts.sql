-- name: contexts
-- purpose: For the benchmark export: per group, the sentence of Wikipedia evidence that
--          supports its latest answer (a trusted, not weak, mention in the group's Wikipedia
--          snapshot): from the page the relation names (`role`: 'subject' or 'object') if
--          it has one, else from the other page; of the first latest value (`position`) that
--          has one; the earliest sentence of its page. One row per group with evidence.
-- params: none. Reads the registered table `export_wanted(subject, pid, value, position,
--         role, snapshot)` (one row per latest value of a group) and the view `evidence`.
SELECT
    w.subject,
    w.pid,
    arg_min(
        {'title': e.title, 'revision_id': e.revision_id, 'sentence_index': e.sentence_index,
         'sentence': e.sentence},
        (e.page_role <> w.role, w.position, e.sentence_index, e.title)
    ) AS context
FROM export_wanted AS w
JOIN evidence AS e
  ON e.snapshot = w.snapshot AND e.subject = w.subject AND e.pid = w.pid
 AND e.object_qid = w.value
WHERE NOT e.weak
GROUP BY w.subject, w.pid
ORDER BY w.subject, w.pid;
