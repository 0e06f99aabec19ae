"""Hash-based pseudo-random draws in DuckDB SQL, and the per-snapshot event terms built from them.

Every draw is ``u(key, step, salt)``: ``hash(key, step, salt, seed)`` scaled to [0, 1). The
key is a subject number, a group id or a statement id; ``step`` is a snapshot transition
(1 … k) or a slot; ``salt`` names the purpose (the constants below), so independent
decisions never share a draw and the same decision is always drawn the same way.
"""

from __future__ import annotations

from datetime import date

from bench.classify_gen.model import GenParams

TWO_64 = "18446744073709551616.0"

# salts: one per decision
KIND, HAS, COUNT, EXT_PID, NEW_GROUP = 1, 2, 3, 4, 5
SIZE, TQ, STEP, Y0, OPEN, PREF, AMOUNT, GROWTH = 6, 7, 8, 9, 10, 11, 12, 13
SUBJECT_DELETE, SUBJECT_REDIRECT, GROUP_DELETE, STATEMENT_DELETE = 20, 21, 22, 23
ADD, END, REPLACE, RANK_CHANGE, RANK_FLIP, RANK_BASE, SNAK = 24, 25, 26, 27, 28, 29, 30
EVENT_DAY, EVENT_PRECISION, Q_MONTH, Q_DAY, Q_PRECISION = 31, 32, 33, 34, 35
SOMEVALUE_START, SOMEVALUE_END, START_ONLY_END, START_ONLY_YEARS = 36, 37, 38, 39
LIFE, DEATH, TIME_PRECISION, CALENDAR, REFERENCES, REDIRECT_TARGET, LONGITUDE = (
    40, 41, 42, 43, 44, 45, 46,
)  # fmt: skip
SUCCESSOR = 55
LABEL_N, DESC_N, ALIAS_N, LINKED, SITE_N, HOME, HOME_EN = 56, 57, 58, 59, 60, 61, 62


def macros(params: GenParams) -> list[str]:
    """``CREATE TEMP MACRO`` statements for the draws and the date helpers."""
    shape = params.shape
    day, year = shape.day_precision, shape.day_precision + shape.year_precision
    return [
        f"CREATE OR REPLACE TEMP MACRO u(a, b, c) AS "
        f"hash(a, CAST(b AS BIGINT), CAST(c AS BIGINT), {params.seed}) / {TWO_64}",
        "CREATE OR REPLACE TEMP MACRO lomax(x, lo, hi, alpha, scale) AS CAST(least(hi, "
        "lo + floor(scale * (pow(1.0 - x, -1.0 / alpha) - 1.0))) AS INTEGER)",
        "CREATE OR REPLACE TEMP MACRO day_lo(y, m, d, p) AS CASE "
        "WHEN p >= 11 THEN make_date(y, m, d) WHEN p = 10 THEN make_date(y, m, 1) "
        "WHEN p = 9 THEN make_date(y, 1, 1) ELSE make_date(y - y % 10, 1, 1) END",
        "CREATE OR REPLACE TEMP MACRO day_hi(y, m, d, p) AS CASE "
        "WHEN p >= 11 THEN make_date(y, m, d) WHEN p = 10 THEN last_day(make_date(y, m, 1)) "
        "WHEN p = 9 THEN make_date(y, 12, 31) ELSE make_date(y - y % 10 + 9, 12, 31) END",
        f"CREATE OR REPLACE TEMP MACRO qprec(x) AS "
        f"CASE WHEN x < {day} THEN 11 WHEN x < {year} THEN 9 ELSE 10 END",
        # a qualifier date of a group's j-th statement in year y: {lo, hi}
        f"CREATE OR REPLACE TEMP MACRO qdate(g, j, y) AS struct_pack("
        f"lo := day_lo(y, {_month('g', 'j')}, {_day('g', 'j')}, qprec(u(g, j, {Q_PRECISION}))), "
        f"hi := day_hi(y, {_month('g', 'j')}, {_day('g', 'j')}, qprec(u(g, j, {Q_PRECISION}))))",
        f"CREATE OR REPLACE TEMP MACRO ev_day(g, t) AS {_event_day(params.dates())}",
        f"CREATE OR REPLACE TEMP MACRO ev_prec(g, t) AS CASE "
        f"WHEN u(g, t, {EVENT_PRECISION}) < 0.8 THEN 11 "
        f"WHEN u(g, t, {EVENT_PRECISION}) < 0.88 THEN 10 ELSE 9 END",
        # the date of the event drawn for key g in transition t: {lo, hi}
        "CREATE OR REPLACE TEMP MACRO evdate(g, t) AS struct_pack("
        "lo := day_lo(year(ev_day(g, t)), month(ev_day(g, t)), day(ev_day(g, t)), ev_prec(g, t)),"
        " hi := day_hi(year(ev_day(g, t)), month(ev_day(g, t)), day(ev_day(g, t)), "
        "ev_prec(g, t)))",
    ]


def _month(g: str, j: str) -> str:
    """SQL: the month (1-12) drawn for key g and step j."""
    return f"CAST(1 + floor(u({g}, {j}, {Q_MONTH}) * 12) AS INTEGER)"


def _day(g: str, j: str) -> str:
    """SQL: the day (1-28, valid in every month) drawn for key g and step j."""
    return f"CAST(1 + floor(u({g}, {j}, {Q_DAY}) * 28) AS INTEGER)"


def _event_day(dates: list[date]) -> str:
    """A day in (D[t-1], D[t]] drawn for key g: the date of a change made in transition t."""
    if len(dates) < 2:
        return "NULL::DATE"
    branches = []
    for t in range(1, len(dates)):
        span = (dates[t] - dates[t - 1]).days
        branches.append(
            f"WHEN {t} THEN DATE '{dates[t - 1].isoformat()}' "
            f"+ CAST(1 + floor(u(g, t, {EVENT_DAY}) * {span}) AS INTEGER)"
        )
    return "CASE t " + " ".join(branches) + " END"


def any_event(key: str, born: str, k: int, salt: int, chance: str) -> str:
    """SQL: some transition t in (born, k] drew ``u(key, t, salt) < chance``."""
    terms = [f"({born} < {t} AND u({key}, {t}, {salt}) < {chance})" for t in range(1, k + 1)]
    return "(" + " OR ".join(terms) + ")" if terms else "false"


def first_event(key: str, born: str, k: int, salt: int, chance: str) -> str:
    """SQL: the first transition t in (born, k] that drew ``u(key, t, salt) < chance``, or NULL."""
    terms = [
        f"WHEN {born} < {t} AND u({key}, {t}, {salt}) < {chance} THEN {t}" for t in range(1, k + 1)
    ]
    return "CASE " + " ".join(terms) + " END" if terms else "CAST(NULL AS INTEGER)"


def count_events(key: str, born: str, k: int, salt: int, chance: str) -> str:
    """SQL: how many transitions t in (born, k] drew ``u(key, t, salt) < chance``."""
    terms = [
        f"CAST({born} < {t} AND u({key}, {t}, {salt}) < {chance} AS INTEGER)"
        for t in range(1, k + 1)
    ]
    return "(" + " + ".join(terms) + ")" if terms else "0"
