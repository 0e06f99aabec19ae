-- name: copy_value_labels_all
-- purpose: The labels a timeline shows of its values, for every subject of the lookup copy
--          at once, in no order (sql/lookup/copy_value_labels_sorted.sql sorts them by
--          subject, then kgdiff/query/lookup_build.py cuts them into the subject ranges'
--          `value_labels`, sql/lookup/copy_value_labels.sql, and drops both): for each row of
--          the copy's timelines whose value is an entity, or a quantity whose unit is one,
--          its subject, its value and that entity's label from `latest_labels_all`
--          (sql/lookup/copy_latest_labels.sql); a value whose entity has no label there
--          has no row, and a value of several statements has one per statement. One join
--          over the whole copy, streaming the timelines past the labels' hash table: per
--          range, a timeline's values spread over every range cost a scan of each range's
--          labels per question. Sorted apart: the join's hash table and the sort in one
--          statement ran out of the writer's 1 GB at 3 x 25 M statements, each alone fits.
-- params: none.
CREATE TABLE scratch.value_labels_joined AS
SELECT t.subject, t.value, l.label
FROM lookup.main.timelines AS t
JOIN scratch.latest_labels_all AS l
  ON l.qid = CASE
      WHEN regexp_full_match(t.value, '[QPL][1-9][0-9]*') THEN t.value
      ELSE regexp_extract(t.value, '^[+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?\|([QPL][1-9][0-9]*)$', 1)
  END;
