-- name: merge_targets
-- purpose: Catalog macro `kgdiff_merge_targets(merges_as_of)`: the merges the classification
--          follows (docs/classification.md), in one place for sql/classify/classify.sql and
--          sql/staleness/curve.sql. A merged item's row in the latest snapshot up to
--          $merges_as_of that has one is a redirect (the rows of the items some snapshot
--          redirects: the view `entity_redirects`, sql/catalog/entity_redirects_view.sql);
--          at most two redirects are followed (bots repair longer chains).
--          One row per merged item: qid, target (the item it was merged into).
--          Reads the views `entity_redirects(snapshot, qid, redirect_to)` and
--          `snapshots(name, date)`.
-- params: $merges_as_of (DATE): the latest snapshot date read.
WITH
redirects AS (
    SELECT qid, redirect_to AS target
    FROM (
        SELECT r.qid, r.redirect_to
        FROM entity_redirects AS r
        JOIN snapshots AS s ON s.name = r.snapshot
        WHERE s.date <= $merges_as_of
        QUALIFY row_number() OVER (PARTITION BY r.qid ORDER BY s.date DESC, s.name DESC) = 1
    )
    WHERE redirect_to IS NOT NULL
)
SELECT r1.qid, coalesce(r2.target, r1.target) AS target
FROM redirects AS r1
LEFT JOIN redirects AS r2 ON r2.qid = r1.target;
