"""SQL writing the statements table of snapshot k, straight from ``groups``, already sorted.

Each group expands into slots: its base statements (0 … size-1), then for every
transition t ≤ k a slot for a statement *added* in t and one for a *successor* started
in t (a career's next position). Which slots exist, and how each statement looks in
snapshot k (value version, rank, end qualifier, removal), is decided by draws keyed on
the group or statement id and the transition, so every snapshot agrees with the others.
The pipeline (scan, unnest, filter, project) keeps the sorted order of ``groups``, so no
sort is needed: rows come out by subject, pid and ordinal as in a real snapshot.
"""

from __future__ import annotations

from bench.classify_gen import draws as d
from bench.classify_gen.model import GenParams

LAST_YEAR = 2021
"""Base statements' dates end here (before the first snapshot)."""


def _slots(params: GenParams, k: int) -> str:
    """SQL: the list of slots of a group in snapshot k."""
    churn = params.churn
    add_chance = (
        f"CASE tmode WHEN 4 THEN {churn.census!r} WHEN 0 THEN {churn.add!r} * churn "
        f"ELSE {churn.add!r} END"
    )
    expr = "range(size)"
    for t in range(1, k + 1):
        added = f"born < {t} AND tmode <> 1 AND u(gid, {t}, {d.ADD}) < {add_chance}"
        started = (
            f"born < {t} AND tmode = 1 AND u(gid, {t}, {d.END}) < {churn.end_and_start!r} "
            f"AND u(gid, {t}, {d.SUCCESSOR}) < {churn.successor!r}"
        )
        base = f"size + {2 * (t - 1)}"
        expr = (
            f"list_concat({expr}, CASE WHEN {added} THEN [CAST({base} AS BIGINT)] ELSE [] END, "
            f"CASE WHEN {started} THEN [CAST({base} + 1 AS BIGINT)] ELSE [] END)"
        )
    return expr


def _gone(params: GenParams, k: int) -> str:
    """SQL: the subject is deleted or redirected, or the group removed, by snapshot k."""
    churn = params.churn
    return " OR ".join(
        [
            d.any_event("num", "subj_born", k, d.SUBJECT_DELETE, repr(churn.delete_subject)),
            d.any_event("num", "subj_born", k, d.SUBJECT_REDIRECT, repr(churn.redirect_subject)),
            d.any_event("gid", "born", k, d.GROUP_DELETE, repr(churn.remove_group)),
        ]
    )


def _rank(params: GenParams) -> str:
    """SQL: the rank in snapshot k (drawn once, flipped by a rank change)."""
    shape = params.shape
    preferred = shape.deprecated + shape.preferred
    base = (
        f"CASE WHEN tmode = 4 AND series_pref AND skind = 0 AND slot = size - 1 THEN 'preferred' "
        f"WHEN rank_x < {shape.deprecated!r} THEN 'deprecated' "
        f"WHEN rank_x < {preferred!r} THEN 'preferred' ELSE 'normal' END"
    )
    return (
        f"CASE WHEN NOT rank_changed THEN {base} WHEN ({base}) <> 'normal' THEN 'normal' "
        f"WHEN u(sid, 0, {d.RANK_FLIP}) < 0.5 THEN 'preferred' ELSE 'deprecated' END"
    )


def _qualifiers(params: GenParams) -> str:
    """SQL select items: s_q, e_q, p_q ({lo, hi} or NULL) and the start/end somevalue flags."""
    shape = params.shape
    own = "qdate(gid, slot, y0 + slot * step)"
    new = "evdate(gid, sborn)"
    static_end = (
        "CASE WHEN slot < size - 1 THEN qdate(gid, slot + 1, y0 + (slot + 1) * step) "
        "WHEN NOT last_open THEN qdate(gid, CAST(size AS BIGINT), y0 + size * step) END"
    )
    start_only_end = (
        f"CASE WHEN u(sid, 0, {d.START_ONLY_END}) < {shape.start_only_end!r} THEN "
        f"qdate(gid, slot + 500, least({LAST_YEAR}, y0 + slot * step + 1 "
        f"+ CAST(floor(u(sid, 0, {d.START_ONLY_YEARS}) * 5) AS INTEGER))) END"
    )
    return f"""
        CASE WHEN tmode = 1 AND skind = 2 THEN {new}
             WHEN tmode = 1 THEN {own}
             WHEN tmode = 2 AND skind = 1 THEN {new}
             WHEN tmode = 2 THEN {own} END AS s_q,
        CASE WHEN tmode = 1 AND end_t IS NOT NULL THEN evdate(gid, end_t)
             WHEN tmode = 1 AND skind = 0 THEN {static_end}
             WHEN tmode = 2 AND skind = 0 THEN {start_only_end} END AS e_q,
        CASE WHEN tmode IN (3, 4) AND skind = 1 THEN {new}
             WHEN tmode IN (3, 4) THEN {own} END AS p_q,
        CASE WHEN tmode IN (1, 2)
             THEN u(sid, 0, {d.SOMEVALUE_START}) < {shape.somevalue_start!r} END AS start_unknown,
        CASE WHEN tmode IN (1, 2) AND end_t IS NULL
             THEN u(sid, 0, {d.SOMEVALUE_END}) < {shape.somevalue_end!r} END AS end_unknown"""


def _time_parts(params: GenParams) -> str:
    """SQL select items: ty, tm, td, tp, julian of a main-snak time value (NULL otherwise)."""
    shape = params.shape
    event = "(born > 0 AND pid IN ('P577', 'P571'))"
    life = f"CASE WHEN pid IN ('P569', 'P570') THEN u(num, 0, {d.LIFE}) ELSE uv END"
    year = f"pool_off + CAST(floor((pool_n - pool_off) * pow({life}, skew)) AS INTEGER)"
    death = f"least({LAST_YEAR}, {year} + 20 + CAST(floor(u(num, 0, {d.DEATH}) * 70) AS INTEGER))"
    x = f"u(sid, ver, {d.TIME_PRECISION})"
    return f"""
        CASE WHEN vtype <> 'time' THEN NULL WHEN {event} THEN year(ev_day(gid, born))
             WHEN pid = 'P570' THEN {death} ELSE {year} END AS ty,
        CASE WHEN vtype <> 'time' THEN NULL WHEN {event} THEN month(ev_day(gid, born))
             ELSE CAST(1 + v % 12 AS INTEGER) END AS tm,
        CASE WHEN vtype <> 'time' THEN NULL WHEN {event} THEN day(ev_day(gid, born))
             ELSE CAST(1 + (v // 12) % 28 AS INTEGER) END AS td,
        CASE WHEN vtype <> 'time' THEN NULL WHEN {event} THEN ev_prec(gid, born)
             WHEN {x} < 0.7 THEN 11 WHEN {x} < 0.76 THEN 10 WHEN {x} < 0.98 THEN 9
             ELSE 8 END AS tp,
        CASE WHEN vtype = 'time'
             THEN u(sid, 0, {d.CALENDAR}) < {shape.julian_before_1583!r} END AS julian_draw"""


def _value() -> str:
    """SQL: the value key of a statement."""
    time_key = (
        "'+' || lpad(CAST(ty AS VARCHAR), 4, '0') || '-' "
        "|| CASE WHEN tp >= 10 THEN lpad(CAST(tm AS VARCHAR), 2, '0') ELSE '00' END || '-' "
        "|| CASE WHEN tp >= 11 THEN lpad(CAST(td AS VARCHAR), 2, '0') ELSE '00' END "
        "|| 'T00:00:00Z|' || tp || '|' || calendar"
    )
    series_index = "CASE WHEN skind = 0 THEN slot ELSE size + sborn END"
    return f"""CASE
        WHEN snaktype <> 'value' THEN '<' || snaktype || '>'
        WHEN vtype = 'item' THEN 'Q' || item
        WHEN vtype = 'extid' THEN CAST(v % 1000000000 AS VARCHAR)
        WHEN vtype = 'doi' THEN '10.' || CAST(1000 + v % 9000 AS VARCHAR) || '/'
            || CAST(v // 9000 % 100000000 AS VARCHAR)
        WHEN vtype = 'string' THEN pid || ' ' || CAST(v % 1000000 AS VARCHAR)
        WHEN vtype = 'url' THEN 'https://www.example.org/' || lower(hex(v))
        WHEN vtype = 'media' THEN 'File ' || CAST(v % 10000000 AS VARCHAR) || '.jpg'
        WHEN vtype = 'mono' THEN 'en:Title ' || CAST(v % 1000000000 AS VARCHAR)
        WHEN vtype = 'time' THEN {time_key}
        WHEN vtype = 'quantity' AND tmode = 4 THEN
            '+' || CAST(round(amount0 * pow(growth, {series_index})) AS BIGINT) || '|' || unit
        WHEN vtype = 'quantity' THEN
            '+' || CAST(floor(pool_off + pool_n * pow(uv, skew)) AS BIGINT) || '|' || unit
        WHEN vtype = 'coord' THEN CAST(round(-60 + 130 * uv, 6) AS VARCHAR) || ','
            || CAST(round(-180 + 360 * u(sid, ver, {d.LONGITUDE}), 6) AS VARCHAR) || ',Q2'
    END"""


def statements_sql(params: GenParams, k: int, m_subjects: int) -> str:
    """SQL query: the statements of snapshot k in the published column order."""
    churn, shape = params.churn, params.shape
    replace = f"CASE WHEN tmode = 4 THEN 0.0 ELSE {churn.replace!r} * churn END"
    open_statement = "skind = 2 OR (skind = 0 AND tmode = 1 AND last_open AND slot = size - 1)"
    end_t = d.first_event("gid", "sborn", k, d.END, repr(churn.end_and_start))
    julian_shift = "CAST(CASE WHEN julian THEN ty // 100 - ty // 400 - 2 ELSE 0 END AS INTEGER)"
    snak = (
        f"CASE WHEN tmode = 4 THEN 'value' WHEN snak_x < {shape.somevalue!r} "
        f"THEN 'somevalue' WHEN snak_x < {shape.somevalue + shape.novalue!r} "
        "THEN 'novalue' ELSE 'value' END"
    )
    return f"""
WITH slots AS (
    SELECT *, unnest({_slots(params, k)}) AS slot,
           {LAST_YEAR} - size * step - CAST(floor(u(gid, 0, {d.Y0}) * 25) AS INTEGER) AS y0
    FROM groups
    WHERE born <= {k} AND NOT ({_gone(params, k)})
),
keyed AS (
    SELECT *,
        CASE WHEN slot < size THEN born ELSE CAST((slot - size) // 2 + 1 AS INTEGER) END AS sborn,
        CASE WHEN slot < size THEN 0 ELSE 1 + CAST((slot - size) % 2 AS INTEGER) END AS skind,
        hash(gid, slot, {params.seed}) AS sid
    FROM slots
),
kept AS (
    SELECT *,
        {d.count_events("sid", "sborn", k, d.REPLACE, replace)} AS ver,
        {d.any_event("sid", "sborn", k, d.RANK_CHANGE, repr(churn.rank))} AS rank_changed,
        CASE WHEN {open_statement} THEN {end_t} END AS end_t
    FROM keyed
    WHERE NOT {d.any_event("sid", "sborn", k, d.STATEMENT_DELETE, repr(churn.remove))}
),
drawn AS (
    SELECT *, v / {d.TWO_64} AS uv
    FROM (SELECT *, hash(sid, ver, {params.seed}) AS v, u(sid, ver, {d.SNAK}) AS snak_x,
                 u(sid, 0, {d.RANK_BASE}) AS rank_x
          FROM kept)
),
numbered AS (
    SELECT *,
        CASE WHEN vtype = 'item' THEN 1 + (CAST(pool_off + floor(
            (CASE WHEN pool_n = 0 THEN {m_subjects} ELSE pool_n END) * pow(uv, skew)) AS BIGINT)
            - 1) % {m_subjects}
        END AS item
    FROM drawn
),
shaped AS (
    SELECT *, {_time_parts(params)}, {_qualifiers(params)}, {snak} AS snaktype
    FROM numbered
),
dated AS (
    SELECT *,
        julian_draw AND ty < 1583 AS julian,
        CASE WHEN julian_draw AND ty < 1583 THEN 'Q1985786' ELSE 'Q1985727' END AS calendar,
        CASE WHEN s_q IS NULL THEN NULL WHEN start_unknown THEN 'somevalue' ELSE 'value' END
            AS start_snaktype,
        CASE WHEN e_q IS NULL THEN NULL WHEN end_unknown THEN 'somevalue' ELSE 'value' END
            AS end_snaktype
    FROM shaped
)
SELECT
    subject || '$' || lpad(hex(sid), 16, '0') || '-' || left(lpad(hex(gid), 16, '0'), 12)
        AS statement_id,
    subject,
    pid,
    CAST(slot AS INTEGER) AS ordinal,
    {_rank(params)} AS rank,
    snaktype,
    CASE WHEN snaktype = 'value' THEN datatype END AS datatype,
    CASE WHEN snaktype = 'value' THEN value_type END AS value_type,
    {_value()} AS value,
    CASE WHEN snaktype = 'value' AND vtype = 'item' THEN 'Q' || item END AS object_qid,
    CASE WHEN snaktype = 'value' AND vtype = 'time' THEN CAST(tp AS TINYINT) END
        AS time_precision,
    CASE WHEN snaktype = 'value' AND vtype = 'time' THEN calendar END AS time_calendar,
    CASE WHEN snaktype = 'value' AND vtype = 'time'
        THEN day_lo(ty, tm, td, tp) + {julian_shift} END AS time_lo,
    CASE WHEN snaktype = 'value' AND vtype = 'time'
        THEN day_hi(ty, tm, td, tp) + {julian_shift} END AS time_hi,
    CASE WHEN start_snaktype = 'value' THEN s_q.lo END AS start_lo,
    CASE WHEN start_snaktype = 'value' THEN s_q.hi END AS start_hi,
    start_snaktype,
    CASE WHEN end_snaktype = 'value' THEN e_q.lo END AS end_lo,
    CASE WHEN end_snaktype = 'value' THEN e_q.hi END AS end_hi,
    end_snaktype,
    p_q.lo AS point_lo,
    p_q.hi AS point_hi,
    CASE WHEN p_q IS NOT NULL THEN 'value' END AS point_snaktype,
    CAST((s_q IS NOT NULL)::INTEGER + (e_q IS NOT NULL)::INTEGER + (p_q IS NOT NULL)::INTEGER
         + (pid IN ('P50', 'P2093') AND snaktype = 'value')::INTEGER AS INTEGER) AS n_qualifiers,
    CAST(hash(sid, {d.REFERENCES}) % 4 AS INTEGER) AS n_references
FROM dated"""
