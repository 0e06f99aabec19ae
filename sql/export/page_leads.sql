-- name: page_leads
-- purpose: For the benchmark export's distractor documents: the lead (first section, plain
--          text) of every article of one Wikipedia snapshot that has one, by title.
-- params: $snapshot (VARCHAR, a Wikipedia snapshot). Reads the view `pages`.
SELECT title, lead
FROM pages
WHERE snapshot = $snapshot
  AND namespace = 0
  AND redirect IS NULL
  AND NOT coalesce(text_deleted, FALSE)
  AND length(trim(coalesce(lead, ''))) > 0
ORDER BY title;
