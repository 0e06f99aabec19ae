-- name: entity_ends
-- purpose: For the benchmark export's wording (past tense) and its `pools` years: what each
--          snapshot records of how an entity ended, read once per export into a file that
--          each part filters for its ids and its date (kgdiff/export/rules/entity_ends.py). One
--          row per (entity, snapshot) that records any of it, not deprecated: `ends_from`, the
--          earliest day any of its dates of death (P570), dissolution, abolition or
--          demolition (P576), end time (P582), discontinued date (P2669), service retirement
--          (P730) or official closure (P3999) may be (the least time_lo of their values);
--          `died_unknown`, whether it records a death at an unknown date (P570 somevalue; an
--          unknown dissolution date may lie in the future, as Earth's does); `born_by`, the
--          earliest day its birth (P569) surely came by (the least time_hi of its values).
--          An entity no longer exists on a day D when a snapshot records an end from a day on
--          or before D, an unknown death, or a birth surely more than 130 years before D.
--          Sorted by id, then snapshot.
-- params: none. Reads the view `statements`.
SELECT
    s.subject AS qid,
    s.snapshot,
    min(s.time_lo) FILTER (
        WHERE s.pid <> 'P569' AND s.snaktype = 'value'
    ) AS ends_from,
    coalesce(bool_or(s.pid = 'P570' AND s.snaktype = 'somevalue'), false) AS died_unknown,
    min(s.time_hi) FILTER (WHERE s.pid = 'P569' AND s.snaktype = 'value') AS born_by
FROM statements AS s
WHERE s.pid IN ('P569', 'P570', 'P576', 'P582', 'P2669', 'P730', 'P3999')
  AND s.rank <> 'deprecated'
GROUP BY s.subject, s.snapshot
HAVING ends_from IS NOT NULL OR died_unknown OR born_by IS NOT NULL
ORDER BY s.subject, s.snapshot;
