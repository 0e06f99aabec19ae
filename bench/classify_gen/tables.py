"""SQL for the other four tables of snapshot k: entities, labels, sitelinks, qualifiers.

Entities come from ``subjects`` (alive ones, plus a row with ``redirect_to`` for each
redirected subject) joined with per-subject figures of the statements file just
written; labels and sitelinks are drawn per subject; qualifiers unpivot the
statements' start/end/point columns into P580/P582/P585 rows.
"""

from __future__ import annotations

from bench.classify_gen import draws as d
from bench.classify_gen.model import (
    LABELS,
    LANGUAGES,
    PROPERTY_LABELS,
    WIKIS,
    GenParams,
    kind_codes,
    property_datatypes,
)
from kgdiff.sqlfiles import quote

ORDINAL_PIDS = "('P50', 'P2093')"
"""Author statements: each carries its series ordinal (P1545)."""


def _status(params: GenParams, k: int) -> str:
    """SQL select items: del_t and red_t, the transitions a subject was deleted/redirected in."""
    churn = params.churn
    deleted = d.first_event("num", "born", k, d.SUBJECT_DELETE, repr(churn.delete_subject))
    redirected = d.first_event("num", "born", k, d.SUBJECT_REDIRECT, repr(churn.redirect_subject))
    return f"{deleted} AS del_t, {redirected} AS red_t"


def _terms(params: GenParams) -> str:
    """SQL select items: the entity's counts of labels, descriptions, aliases and sitelinks,
    and its home wiki (an index into :data:`WIKIS`)."""
    terms = params.terms
    article = kind_codes()["article"]
    lo, hi = terms.article_descriptions
    linked = f"u(num, 0, {d.LINKED}) < {terms.linked!r}"
    home = (
        f"CASE WHEN u(num, 0, {d.HOME_EN}) < {terms.home_en!r} THEN 1 "
        f"ELSE 2 + CAST(floor(pow(u(num, 0, {d.HOME}), 2.0) * {len(WIKIS) - 1}) AS INTEGER) END"
    )
    return f"""
            least({len(LANGUAGES)}, {_lomax("num", d.LABEL_N, terms.labels)}) AS n_lab,
            least({len(LANGUAGES)}, CASE WHEN kind = {article}
                THEN {lo} + CAST(floor(u(num, 0, {d.DESC_N}) * {hi - lo}) AS INTEGER)
                ELSE {_lomax("num", d.DESC_N, terms.descriptions)} END) AS n_desc,
            {_lomax("num", d.ALIAS_N, terms.aliases)} AS n_alias,
            CASE WHEN {linked} THEN {_lomax("num", d.SITE_N, terms.sitelinks)} ELSE 0 END
                AS n_site,
            {home} AS home"""


def _lomax(key: str, salt: int, dist: tuple[int, int, float, float]) -> str:
    lo, hi, alpha, scale = dist
    return f"lomax(u({key}, 0, {salt}), {lo}, {hi}, {alpha!r}, {scale!r})"


def subjects_at_sql(params: GenParams, k: int, m_subjects: int) -> str:
    """SQL: subjects present in snapshot k (alive or redirect), with their entity-level draws."""
    kinds = quote(list(LABELS.values()))
    return f"""
        SELECT subject AS qid, num, kind, {kinds}[kind + 1] AS kind_label,
            {kinds}[kind + 1] || ' ' || num AS label_en,
            CASE WHEN red_t IS NOT NULL AND (del_t IS NULL OR red_t < del_t)
                 THEN 'Q' || (1 + hash(num, {d.REDIRECT_TARGET}) % {m_subjects}) END
                AS redirect_to,
            {_terms(params)}
        FROM (SELECT *, {_status(params, k)} FROM subjects WHERE born <= {k})
        WHERE del_t IS NULL OR (red_t IS NOT NULL AND red_t < del_t)"""


def _properties() -> str:
    """SQL: one row per property the store uses (pid, datatype, English label)."""
    rows = [
        f"({quote(pid)}, {quote(datatype)}, {quote(PROPERTY_LABELS.get(pid, 'property ' + pid))})"
        for pid, datatype in sorted(property_datatypes().items())
    ]
    return f"SELECT * FROM (VALUES {', '.join(rows)}) AS p(qid, datatype, label_en)"


def entities_sql(params: GenParams, k: int, m_subjects: int, statements: str) -> str:
    """SQL query: the entities table of snapshot k (sorted by qid): the properties the
    statements use, then the items."""
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
        SELECT qid, 'property' AS type, datatype, label_en, CAST(NULL AS VARCHAR) AS description_en,
            CAST([] AS VARCHAR[]) AS aliases_en, CAST([] AS VARCHAR[]) AS p31,
            CAST(1 AS INTEGER) AS n_labels, CAST(0 AS INTEGER) AS n_sitelinks,
            CAST(0 AS INTEGER) AS n_statements, CAST(100 AS BIGINT) AS lastrevid,
            TIMESTAMP '{day} 00:00:00' AS modified, CAST(NULL AS VARCHAR) AS redirect_to,
            CAST(0 AS BIGINT) AS source_line
        FROM ({_properties()})
        UNION ALL
        SELECT * FROM (
        SELECT
            s.qid,
            'item' AS type,
            CAST(NULL AS VARCHAR) AS datatype,
            CASE WHEN s.redirect_to IS NULL THEN s.label_en END AS label_en,
            CASE WHEN s.redirect_to IS NULL THEN 'synthetic ' || s.label_en END AS description_en,
            CASE WHEN s.redirect_to IS NULL THEN list_transform(range(s.n_alias),
                     lambda i: s.label_en || ' (alias ' || (i + 1) || ')')
                 ELSE CAST([] AS VARCHAR[]) END AS aliases_en,
            coalesce(st.p31, CAST([] AS VARCHAR[])) AS p31,
            CAST(CASE WHEN s.redirect_to IS NULL THEN s.n_lab ELSE 0 END AS INTEGER) AS n_labels,
            CAST(CASE WHEN s.redirect_to IS NULL THEN s.n_site ELSE 0 END AS INTEGER)
                AS n_sitelinks,
            CAST(coalesce(st.n, 0) AS INTEGER) AS n_statements,
            CAST(100000000 + s.num * 16 + {k} AS BIGINT) AS lastrevid,
            TIMESTAMP '{day} 00:00:00' - to_seconds(CAST(hash(s.num, {k}) % 8000000 AS BIGINT))
                AS modified,
            s.redirect_to,
            CAST(s.num AS BIGINT) AS source_line
        FROM ({subjects_at_sql(params, k, m_subjects)}) AS s
        LEFT JOIN st ON st.subject = s.qid
        ORDER BY s.qid)"""


LABEL_SOURCES = "label_sources"
"""The scratch table :func:`labels_sql` reads (made by :func:`label_sources_sql`)."""


def label_sources_sql(params: GenParams, k: int, m_subjects: int) -> str:
    """SQL query: the entities whose labels snapshot k has, in qid order: the properties (one
    English label each) and the items that are not redirects, with what their labels are
    drawn from. Stored as :data:`LABEL_SOURCES` before the labels are written."""
    return f"""
        SELECT qid, label_en, CAST(NULL AS VARCHAR) AS kind_label,
               0 AS n_alias, 0 AS n_desc, 1 AS n_lab
        FROM ({_properties()})
        UNION ALL
        SELECT qid, label_en, kind_label, n_alias, n_desc, n_lab
        FROM ({subjects_at_sql(params, k, m_subjects)})
        WHERE redirect_to IS NULL
        ORDER BY qid"""


def labels_sql() -> str:
    """SQL query: the labels table of a snapshot (sorted by qid, kind, lang, ordinal) from
    :data:`LABEL_SOURCES`: each item's aliases (English), descriptions and labels in its first
    languages of :data:`LANGUAGES`, a property's English label.

    The table is scanned in its stored (qid) order and each entity's rows are sorted in its
    own list, so the snapshot's labels (~440 M at 3 x 200 M statements) stream into the file:
    sorting them whole spilled more than the disk holds, an ``ORDER BY`` of the entities in
    the query made the copy wait for every row (34 GB of spill at 3 x 200 M), and a
    ``UNION ALL`` of the properties and the items came out in either order."""
    langs = quote(list(LANGUAGES))
    return f"""
        SELECT qid, l.kind, l.lang, l.value, CAST(l.ordinal AS INTEGER) AS ordinal
        FROM (
            SELECT qid, unnest(list_sort(list_concat(
                list_transform(range(n_alias), lambda i: {{'kind': 'alias', 'lang': 'en',
                    'ordinal': i, 'value': label_en || ' (alias ' || (i + 1) || ')'}}),
                list_transform(range(n_desc), lambda i: {{'kind': 'description',
                    'lang': {langs}[i + 1], 'ordinal': 0,
                    'value': CASE WHEN i = 0 THEN 'synthetic ' || label_en
                        ELSE 'synthetic ' || kind_label || ' (' || {langs}[i + 1] || ')' END}}),
                list_transform(range(n_lab), lambda i: {{'kind': 'label', 'lang': {langs}[i + 1],
                    'ordinal': 0, 'value': CASE WHEN i = 0 THEN label_en
                        ELSE label_en || ' (' || {langs}[i + 1] || ')' END}})
            ))) AS l
            FROM {LABEL_SOURCES}
        )"""


def sitelinks_sql(params: GenParams, k: int, m_subjects: int) -> str:
    """SQL query: the sitelinks table of snapshot k (sorted by qid, site): a linked item's
    home wiki, then the largest wikis but that one, up to its count."""
    wikis = quote(list(WIKIS))
    sites = (
        f"list_concat([{wikis}[home]], "
        f"list_filter({wikis}, lambda w: w <> {wikis}[home])[1:n_site - 1])"
    )
    return f"""
        SELECT qid, site, label_en AS title, CAST([] AS VARCHAR[]) AS badges
        FROM (
            SELECT qid, label_en, unnest({sites}) AS site
            FROM ({subjects_at_sql(params, k, m_subjects)})
            WHERE redirect_to IS NULL AND n_site > 0
        )
        ORDER BY qid, site"""


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
    """SQL query: the qualifiers table of a statements file: its start, end and point in time
    (P580, P582, P585), and the series ordinal (P1545) of every author statement (P50,
    P2093), as real Wikidata gives authors their rank in the byline."""
    key = (
        "strftime(lo, '+%Y-') || CASE WHEN p >= 10 THEN strftime(lo, '%m') ELSE '00' END || '-' "
        "|| CASE WHEN p >= 11 THEN strftime(lo, '%d') ELSE '00' END "
        "|| 'T00:00:00Z|' || p || '|Q1985727'"
    )
    return f"""
        WITH st AS (
            SELECT statement_id, subject, pid, ordinal, snaktype AS main_snaktype,
                   start_lo, start_hi, start_snaktype,
                   end_lo, end_hi, end_snaktype, point_lo, point_hi, point_snaktype
            FROM read_parquet({quote(statements)})
            WHERE start_snaktype IS NOT NULL OR end_snaktype IS NOT NULL
               OR point_snaktype IS NOT NULL OR pid IN {ORDINAL_PIDS}
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
        UNION ALL
        SELECT statement_id, subject, pid, 'P1545', CAST(0 AS INTEGER), 'value', 'string',
            'string', CAST(ordinal + 1 AS VARCHAR), CAST(NULL AS VARCHAR), CAST(NULL AS TINYINT),
            CAST(NULL AS VARCHAR), CAST(NULL AS DATE), CAST(NULL AS DATE)
        FROM st WHERE pid IN {ORDINAL_PIDS} AND main_snaktype = 'value'
        ORDER BY subject, pid, statement_id, qualifier_pid, ordinal"""
