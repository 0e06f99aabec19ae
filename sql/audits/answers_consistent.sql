-- name: answers_consistent
-- purpose: Audit: answers fit the level. latest ⊆ all_answers; only evolved groups have
--          outdated answers and a change kind; stable/uncharted/recent groups have latest
--          answers; retracted ones have none; ambiguous ones have a reason and no answers;
--          not_covered ones name the subset snapshots that lack their subject, and have no
--          answers; no other level names such snapshots.
-- params: {{build}} a classification build's Parquet files.
SELECT subject, pid, level, latest, outdated, all_answers, change_kind, ambiguous_reason,
       not_covered_in
FROM read_parquet({{build}})
WHERE NOT list_has_all(all_answers, latest)
   OR (level <> 'evolved' AND (len(outdated) > 0 OR change_kind IS NOT NULL))
   OR (level IN ('stable', 'uncharted', 'recent', 'evolved') AND len(latest) = 0)
   OR (level = 'retracted' AND len(latest) > 0)
   OR (level = 'ambiguous' AND (ambiguous_reason IS NULL OR len(all_answers) > 0))
   OR (level <> 'ambiguous' AND ambiguous_reason IS NOT NULL)
   OR (level = 'not_covered' AND (len(coalesce(not_covered_in, [])) = 0 OR len(all_answers) > 0))
   OR (level <> 'not_covered' AND not_covered_in IS NOT NULL)
   OR level NOT IN ('stable', 'evolved', 'uncharted', 'recent', 'retracted', 'ambiguous',
                    'not_covered');
