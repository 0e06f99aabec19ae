-- name: qualified_statements
-- purpose: Demo: a few statements with start/end qualifiers (P580/P582) as they appear in
--          every snapshot, with their precision-aware validity intervals.
-- params: none.
WITH picked AS (
    SELECT statement_id
    FROM statements
    WHERE start_lo IS NOT NULL AND end_lo IS NOT NULL AND object_qid IS NOT NULL
    GROUP BY statement_id
    HAVING count(DISTINCT snapshot) = 3
    ORDER BY statement_id
    LIMIT 4
)
SELECT
    st.snapshot,
    st.subject,
    coalesce(e.label_en, st.subject) AS subject_label,
    st.pid,
    st.value,
    st.start_lo,
    st.start_hi,
    st.end_lo,
    st.end_hi
FROM statements AS st
JOIN picked USING (statement_id)
LEFT JOIN entities AS e ON e.snapshot = st.snapshot AND e.qid = st.subject
ORDER BY st.subject, st.pid, st.value, st.snapshot;
