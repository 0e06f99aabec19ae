"""The audit's own reading of a change between two value keys: the same value spelled again
(*reformatted*) or pinned down more precisely (*refined*), which no model's knowledge makes
false, against a *substantive* change.

- reformatted: a URL with another scheme, ``www.``, host case or trailing slash; a string or
  an external id with other spacing, case or hyphens; a monolingual text with other spacing
  or case; a quantity's amount written otherwise (``+10`` and ``+10.0``); a coordinate
  written otherwise;
- refined: a time at a finer precision inside the old one's span (``1830`` → ``1830-10-04``);
  a coordinate with more decimals that rounds to the old one.

Written from the rules of issue 35 (docs/benchmark-export.md#the-quality-audit), apart from
the classification's own ``change_nature``, so that the audit catches what it gets wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

_TIME = re.compile(r"([+-])(\d+)-(\d\d)-(\d\d)T[^|]*\|(\d+)\|(.*)")
_QUANTITY = re.compile(r"([+-]?\d[\d.]*(?:[eE][+-]?\d+)?)\|(.+)")
_COORDINATE = re.compile(r"(-?[\d.]+(?:e-?\d+)?),(-?[\d.]+(?:e-?\d+)?),(.*)")
_MONOLINGUAL = re.compile(r"([a-z]{2,3}(?:-[a-z0-9]+)*):(?!//)(.*)", re.DOTALL)
_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)(.*)", re.DOTALL)
_ITEM = re.compile(r"[QPL][1-9]\d*")
_SPACING = re.compile(r"[\s\-‐-―]+")

SUBSTANTIVE, REFORMATTED, REFINED = "substantive", "reformatted", "refined"


def _url_form(match: re.Match[str]) -> str:
    host = match.group(2).lower().removeprefix("www.")
    return f"{host}{match.group(3)}".rstrip("/")


def spelling(key: str) -> tuple[str, ...] | None:
    """A value key's spelling-free form (two keys of one form are one value spelled twice);
    None for values that have no other spelling (items, times, ``<novalue>``)."""
    if _ITEM.fullmatch(key) or _TIME.fullmatch(key) or key.startswith("<"):
        return None
    if (url := _URL.fullmatch(key)) is not None:
        return ("url", _url_form(url))
    if (quantity := _QUANTITY.fullmatch(key)) is not None:
        try:
            return ("quantity", str(Decimal(quantity.group(1)).normalize()), quantity.group(2))
        except InvalidOperation:
            return ("string", key)
    if (point := _COORDINATE.fullmatch(key)) is not None:
        return (
            "coordinate",
            str(float(point.group(1))),
            str(float(point.group(2))),
            point.group(3),
        )
    if (text := _MONOLINGUAL.fullmatch(key)) is not None:
        return ("text", text.group(1), " ".join(text.group(2).casefold().split()))
    return ("string", _SPACING.sub("", key).casefold())


def reformatted(old: str, new: str) -> bool:
    """Whether two different value keys are one value in two spellings."""
    if old == new:
        return False
    form = spelling(old)
    return form is not None and form == spelling(new)


def _time_refined(old: re.Match[str], new: re.Match[str]) -> bool:
    old_precision, new_precision = int(old.group(5)), int(new.group(5))
    if new_precision <= old_precision or old.group(1) != new.group(1):
        return False
    old_year, new_year = int(old.group(2)), int(new.group(2))
    if old_precision >= 9:  # year, month: the same fields up to the old precision
        fields = 1 if old_precision == 9 else 2
        olds, news = (old_year, old.group(3)), (new_year, new.group(3))
        return bool(olds[:fields] == news[:fields])
    span = 10 ** (9 - old_precision)  # decade 10, century 100, millennium 1000, ...
    if old_precision == 8:
        return bool(old_year // span == new_year // span)
    # a century is written by a year of it, the first (1901) or a round one (1900, 2000):
    # either reading counts
    return bool(
        old_year // span == new_year // span or (old_year - 1) // span == (new_year - 1) // span
    )


def _decimals(number: str) -> int:
    return len(number.split(".", 1)[1]) if "." in number else 0


def _coordinate_refined(old: re.Match[str], new: re.Match[str]) -> bool:
    if old.group(3) != new.group(3):
        return False
    finer = False
    for index in (1, 2):
        places = _decimals(old.group(index))
        if _decimals(new.group(index)) < places:
            return False
        finer = finer or _decimals(new.group(index)) > places
        if round(float(new.group(index)), places) != round(float(old.group(index)), places):
            return False
    return finer


def refined(old: str, new: str) -> bool:
    """Whether ``new`` pins ``old`` down: a finer time inside its span, or a coordinate with
    more decimals rounding to it."""
    old_time, new_time = _TIME.fullmatch(old), _TIME.fullmatch(new)
    if old_time and new_time:
        return _time_refined(old_time, new_time)
    old_point, new_point = _COORDINATE.fullmatch(old), _COORDINATE.fullmatch(new)
    if old_point and new_point:
        return _coordinate_refined(old_point, new_point)
    return False


def change_nature(outdated: Sequence[str], latest: Sequence[str]) -> str:
    """``reformatted`` or ``refined`` when every outdated value lives on in a latest one
    spelled otherwise or made more precise (``refined`` if any was), else ``substantive``."""
    if not outdated:
        return SUBSTANTIVE
    found = SUBSTANTIVE
    for old in outdated:
        if any(refined(old, new) for new in latest):
            found = REFINED
        elif any(reformatted(old, new) for new in latest):
            found = found if found == REFINED else REFORMATTED
        else:
            return SUBSTANTIVE
    return found
