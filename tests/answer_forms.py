"""Answers a model might give to a record of a benchmark, right and nearly right: its answers
and outdated answers, its gold dates and durations written as people write them and a day, a
month or a year off, its gold counts rounded, within and beyond 2 %, with separators and scale
words, and the values its subject held in other years (tests/test_task_metrics.py)."""

from __future__ import annotations

import calendar
from datetime import date, timedelta
from typing import Any

from kgdiff.portable.date_match import end_dates, time_key_dates
from kgdiff.portable.number_match import amounts, counted, gold_keys, other_amounts, plain_numbers

WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
WRAPPERS = ("{}", "It was {}.", "About {} people.", "I think {}", "{} or so", "In 2013, {}")
"""How an answer may stand in a sentence (the last one states a year before the answer)."""


def record_answers(record: dict[str, Any]) -> list[str]:
    """The answers to try on ``record``."""
    found = [*(record.get("answers") or []), *(record.get("outdated_answers") or [])[:3]]
    for iso, precision in _gold_dates(record):
        found += date_forms(iso, precision)
    if record.get("kind") == "interval" and record.get("duration") is not None:
        found += duration_forms(int(record["duration"]), str(record["duration_unit"]))
    if counted(record):
        numbers = plain_numbers(record.get("answers") or []) or amounts(gold_keys(record))
        for number in [*numbers, *other_amounts(record)]:
            found += number_forms(number)
    return found


def _gold_dates(record: dict[str, Any]) -> list[tuple[str, str]]:
    if record.get("kind") == "timestamp" and record.get("date"):
        precision = str(record["date_precision"])
        return [(iso, precision) for iso in end_dates(str(record["date"]), precision)]
    return time_key_dates(gold_keys(record)) or []


def date_forms(iso: str, precision: str) -> list[str]:
    """A gold date (``YYYY[-MM[-DD]]``, ``-`` before the common era) in words and figures,
    and a day, a month and a year off."""
    before = iso.startswith("-")
    year, month, day = [*(int(part) for part in iso.lstrip("-").split("-")), 0, 0][:3]
    said = f"{year} BC" if before else str(year)
    forms = [iso, said, f"{year + 1} BC" if before else str(year + 1)]
    if month:
        name = calendar.month_name[month]
        forms += [f"{name} {said}", f"{calendar.month_name[month % 12 + 1]} {said}"]
    if month and day:
        forms += [f"{day} {name} {said}", f"{name} {day}, {said}", f"the {day}th of {name} {said}"]
        if not before and year >= 1:
            for shift in (-1, 1):
                near = date(year, month, min(day, 28)) + timedelta(days=shift)
                forms += [near.isoformat(), f"{calendar.month_name[near.month]} {near.day}, {said}"]
    return forms


def duration_forms(count: int, unit: str) -> list[str]:
    """A gold duration as a number, with its unit or another, in words, and one off."""
    forms = [str(count), f"{count} {unit}", f"{count + 1} {unit}", f"{max(count - 1, 0)} years"]
    forms += [f"{count * 12} months", f"{count} months"]
    if count < len(WORDS):
        forms.append(f"{WORDS[count]} {unit}")
    return forms


def number_forms(number: float) -> list[str]:
    """A gold count rounded as people round it, within 2 % and beyond, with separators and
    scale words."""
    forms = []
    for factor in (1.0, 0.99, 1.015, 0.975, 1.03):
        near = round(number * factor)
        forms += [str(near), f"{near:,}", f"{near:,}".replace(",", " ")]
        forms += [f"{near / 1e3:.0f} thousand", f"{near / 1e6:.2f} million", f"{near / 1e3:.0f}k"]
    return forms
