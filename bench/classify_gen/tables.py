"""SQL for the other four tables of snapshot k: entities, labels, sitelinks, qualifiers.

Entities come from ``subjects`` (alive ones, plus a row with ``redirect_to`` for each
redirected subject) joined with per-subject figures of the statements file just
written; labels and sitelinks are drawn per subject; qualifiers unpivot the
statements' start/end/point columns into P580/P582/P585 rows.
"""

from __future__ import annotations

from bench.classify_gen import draws as d
from bench.classify_gen.model import LABELS, GenParams
from kgdiff.sqlfiles import quote


def _status(params: GenParams, k: int) -> str:
    """SQL select items: del_t and red_t, the transitions a subject was deleted/redirected in."""
    churn = params.churn
    deleted = d.first_event("num", "born", k, d.SUBJECT_DELETE, repr(churn.delete_subject))
    redirected = d.first_event("num", "born", k, d.SUBJECT_REDIRECT, repr(churn.redirect_subject))
    return f"{deleted} AS del_t, {redirected} AS red_t"


def subjects_at_sql(params: GenParams, k: int, m_subjects: int) -> str:
    """SQL: subjects present in snapshot k (alive or redirect), with their entity-level draws."""
    kinds = quote(list(LABELS.values()))
    return f"""
        SELECT subject AS qid, num, kind, {kinds}[kind + 1] || ' ' || num AS label_en,
            CASE WHEN red_t IS NOT NULL AND (del_t IS NULL OR red_t < del_t)
                 THEN 'Q' || (1 + hash(num, {d.REDIRECT_TARGET}) % {m_subjects}) END
                AS redirect_to,
            u(num, 0, {d.LABEL_DE}) < 0.5 AS has_de,
            u(num, 0, {d.ALIAS}) < 0.2 AS has_alias,
            u(num, 0, {d.ENWIKI}) < 0.3 AS has_enwiki,
            u(num, 0, {d.DEWIKI}) < 0.1 AS has_dewiki,
            u(num, 0, {d.FRWIKI}) < 0.05 AS has_frwiki
        FROM (SELECT *, {_status(params, k)} FROM subjects WHERE born <= {k})
        WHERE del_t IS NULL OR (red_t IS NOT NULL AND red_t < del_t)"""


def entities_sql(params: GenParams, k: int, m_subjects: int, statements: str) -> str:
    """SQL query: the entities table of snapshot k (sorted by qid)."""
    day = params.dates()[k].isoformat()
    return f"""
        WITH st AS (
            SELECT subject, count(*) AS n,
                   list(object_qid ORDER BY ordinal) FILTER (
                       WHERE pid = 'P31' AND rank <> 'deprecated' AND object_qid IS NOT NULL
                   ) AS p31
            FROM read_parquet({quote(statements)})
            GROUP BY subject
        )
        SELECT
            s.qid,
            'item' AS type,
            CAST(NULL AS VARCHAR) AS datatype,
            CASE WHEN s.redirect_to IS NULL THEN s.label_en END AS label_en,
            CASE WHEN s.redirect_to IS NULL THEN 'synthetic ' || s.label_en END AS description_en,
            CASE WHEN s.redirect_to IS NULL AND s.has_alias THEN [s.label_en || ' (alias)']
                 ELSE CAST([] AS VARCHAR[]) END AS aliases_en,
            coalesce(st.p31, CAST([] AS VARCHAR[])) AS p31,
            CAST(CASE WHEN s.redirect_to IS NULL THEN 1 + s.has_de::INTEGER ELSE 0 END AS INTEGER)
                AS n_labels,
            CAST(CASE WHEN s.redirect_to IS NULL
                 THEN s.has_enwiki::INTEGER + s.has_dewiki::INTEGER + s.has_frwiki::INTEGER
                 ELSE 0 END AS INTEGER) AS n_sitelinks,
            CAST(coalesce(st.n, 0) AS INTEGER) AS n_statements,
            CAST(100000000 + s.num * 16 + {k} AS BIGINT) AS lastrevid,
            TIMESTAMP '{day} 00:00:00' - to_seconds(CAST(hash(s.num, {k}) % 8000000 AS BIGINT))
                AS modified,
            s.redirect_to,
            CAST(s.num AS BIGINT) AS source_line
        FROM ({subjects_at_sql(params, k, m_subjects)}) AS s
        LEFT JOIN st ON st.subject = s.qid
        ORDER BY s.qid"""


def labels_sql(params: GenParams, k: int, m_subjects: int) -> str:
    """SQL query: the labels table of snapshot k (sorted by qid, kind, lang, ordinal)."""
    return f"""
        SELECT qid, l.kind, l.lang, l.value, CAST(0 AS INTEGER) AS ordinal
        FROM (
            SELECT qid, unnest(list_concat(
                CASE WHEN has_alias THEN [{{'kind': 'alias', 'lang': 'en',
                                            'value': label_en || ' (alias)'}}] ELSE [] END,
                [{{'kind': 'description', 'lang': 'en', 'value': 'synthetic ' || label_en}}],
                CASE WHEN has_de THEN [{{'kind': 'label', 'lang': 'de',
                                         'value': label_en || ' (de)'}}] ELSE [] END,
                [{{'kind': 'label', 'lang': 'en', 'value': label_en}}]
            )) AS l
            FROM ({subjects_at_sql(params, k, m_subjects)})
            WHERE redirect_to IS NULL
        )
        ORDER BY qid, l.kind, l.lang"""


def sitelinks_sql(params: GenParams, k: int, m_subjects: int) -> str:
    """SQL query: the sitelinks table of snapshot k (sorted by qid, site)."""
    return f"""
        SELECT qid, l.site, l.title, CAST([] AS VARCHAR[]) AS badges
        FROM (
            SELECT qid, unnest(list_concat(
                CASE WHEN has_dewiki THEN [{{'site': 'dewiki', 'title': label_en}}] ELSE [] END,
                CASE WHEN has_enwiki THEN [{{'site': 'enwiki', 'title': label_en}}] ELSE [] END,
                CASE WHEN has_frwiki THEN [{{'site': 'frwiki', 'title': label_en}}] ELSE [] END
            )) AS l
            FROM ({subjects_at_sql(params, k, m_subjects)})
            WHERE redirect_to IS NULL
        )
        ORDER BY qid, l.site"""


def _qualifier_rows(pid: str, part: str) -> str:
    """SQL: one qualifier row (pid) per statement with a start, end or point (part)."""
    precision = (
        f"CASE WHEN {part}_lo = {part}_hi THEN 11 "
        f"WHEN month({part}_lo) = month({part}_hi) THEN 10 ELSE 9 END"
    )
    return f"""
        SELECT statement_id, subject, pid, '{pid}' AS qualifier_pid,
               {part}_snaktype AS snaktype, {part}_lo AS lo, {part}_hi AS hi,
               CASE WHEN {part}_snaktype = 'value' THEN {precision} END AS p
        FROM st WHERE {part}_snaktype IS NOT NULL"""


def qualifiers_sql(statements: str) -> str:
    """SQL query: the qualifiers table (P580, P582, P585 time qualifiers) of a statements file."""
    key = (
        "strftime(lo, '+%Y-') || CASE WHEN p >= 10 THEN strftime(lo, '%m') ELSE '00' END || '-' "
        "|| CASE WHEN p >= 11 THEN strftime(lo, '%d') ELSE '00' END "
        "|| 'T00:00:00Z|' || p || '|Q1985727'"
    )
    return f"""
        WITH st AS (
            SELECT statement_id, subject, pid, start_lo, start_hi, start_snaktype,
                   end_lo, end_hi, end_snaktype, point_lo, point_hi, point_snaktype
            FROM read_parquet({quote(statements)})
            WHERE start_snaktype IS NOT NULL OR end_snaktype IS NOT NULL
               OR point_snaktype IS NOT NULL
        )
        SELECT statement_id, subject, pid, qualifier_pid, CAST(0 AS INTEGER) AS ordinal, snaktype,
            CASE WHEN snaktype = 'value' THEN 'time' END AS datatype,
            CASE WHEN snaktype = 'value' THEN 'time' END AS value_type,
            CASE WHEN snaktype = 'value' THEN {key} ELSE '<' || snaktype || '>' END AS value,
            CAST(NULL AS VARCHAR) AS object_qid,
            CAST(p AS TINYINT) AS time_precision,
            CASE WHEN snaktype = 'value' THEN 'Q1985727' END AS time_calendar,
            lo AS time_lo, hi AS time_hi
        FROM (
            {_qualifier_rows("P580", "start")}
            UNION ALL {_qualifier_rows("P582", "end")}
            UNION ALL {_qualifier_rows("P585", "point")}
        )
        ORDER BY subject, pid, statement_id, qualifier_pid, ordinal"""
