"""Value keys as the words a question's answer is written in (the benchmark export), and a
timeline's values are labelled with (the query): below both, beside :mod:`kgdiff.timetext`.

An item's answer is its label; every other value key (docs/data-model.md) is rendered here:
a time at its precision ("26 July 1887", "July 1887", "1887", "1880s", "19th century",
"13.798 billion years BCE": :mod:`kgdiff.timetext`, the words of every face), a
quantity's amount with thousands separators, then as the dump writes it ("66,600,000",
"66600000"; with its unit's label when the unit is an item), a monolingual text's text,
a coordinate pair, a string as itself. ``<somevalue>`` and ``<novalue>`` are no answer a model
could give, so they render to nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from kgdiff.timetext import ERA_MARKED_BELOW, parsed_text
from kgdiff.timevalue import TimeValueError, parse_time_key

ENTITY_ID = re.compile(r"[QPL][1-9][0-9]*")
SPECIAL = frozenset({"<somevalue>", "<novalue>"})
_TIME = re.compile(r"([+-])(\d+)-(\d\d)-(\d\d)T[^|]*\|(\d+)\|(.*)")
# monolingual text is ``lang:text`` (a URL's scheme is longer than a language code, and is
# followed by //); a coordinate is ``lat,lon,globe``
_MONOLINGUAL = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]+)*:(?!//)(.+)", re.DOTALL)
_COORDINATE = re.compile(r"(-?[0-9.]+(?:e-?[0-9]+)?),(-?[0-9.]+(?:e-?[0-9]+)?),(?:Q[0-9]+)?")


def text_language(value: str) -> str | None:
    """The language code of a monolingual text value key (``ru`` of ``ru:Петроград``), None
    for another value."""
    found = _MONOLINGUAL.fullmatch(value)
    return value.split(":", 1)[0] if found is not None else None


def in_language(code: str, lang: str) -> bool:
    """Whether a text in language ``code`` is written in ``lang``: the same code, or one of
    its variants (``en-gb``, ``en-ca`` for ``en``)."""
    return code == lang or code.startswith(f"{lang}-")


def is_entity(value: str) -> bool:
    """Whether a value key names an entity (item, property or lexeme)."""
    return ENTITY_ID.fullmatch(value) is not None


def time_precision(value: str) -> int | None:
    """The precision of a time value key (9 a year, 11 a day), None for other values."""
    found = _TIME.fullmatch(value)
    return int(found.group(5)) if found else None


def time_texts(value: str) -> list[str]:
    """A time value key in words at its precision (:mod:`kgdiff.timetext`, the words of every
    face: "26 July 1887", "13.798 billion years BCE", "15 March 44 BCE (Julian)"), then what a
    model may write instead: a Julian date without its mark, a year of the common era below
    1000 without its "CE" (and "AD 30" for the year 30), and the ISO form of a day or a month;
    empty when it is not a time."""
    try:
        parsed = parse_time_key(value)
    except TimeValueError:
        return []
    texts = [parsed_text(parsed), parsed_text(parsed, calendar=False)]
    if parsed.precision >= 8 and 0 < parsed.year < ERA_MARKED_BELOW:
        texts += [text.replace(" CE", "") for text in texts]
        if parsed.precision == 9:
            texts.append(f"AD {parsed.year}")
    found = _TIME.fullmatch(value)
    if found is not None and parsed.precision >= 10 and parsed.month:
        sign, year_text, month, day = found.group(1, 2, 3, 4)
        if parsed.precision >= 11 and parsed.day:
            texts.append(f"{sign if sign == '-' else ''}{year_text}-{month}-{day}")
        else:
            texts.append(f"{year_text}-{month}")
    return list(dict.fromkeys(texts))


_DECIMAL = re.compile(r"(-?)([0-9]+)(\.[0-9]+)?")
GROUPED_FROM = 1000
"""The least amount written with thousands separators ("4,500", "66,600,000"): below it
("350") there is nothing to group."""


def amount_texts(amount: str) -> list[str]:
    """A quantity's amount as people write it, then as the dump does: with thousands
    separators from :data:`GROUPED_FROM` on ("66,600,000", then "66600000"), without the
    dump's leading "+"; an amount in another notation ("1.2E+5") as itself."""
    plain = amount[1:] if amount.startswith("+") else amount
    found = _DECIMAL.fullmatch(plain)
    if found is None or int(found.group(2)) < GROUPED_FROM:
        return [plain]
    sign, whole, fraction = found.groups()
    return [f"{sign}{int(whole):,}{fraction or ''}", plain]


def value_texts(value: str, label_of: Callable[[str], str | None]) -> list[str]:
    """The words of a non-item value key, the main one first (empty for ``<somevalue>``,
    ``<novalue>`` and an unlabelled entity); ``label_of`` names a quantity's unit."""
    if value in SPECIAL:
        return []
    if is_entity(value):
        label = label_of(value)
        return [label] if label else []
    times = time_texts(value)
    if times:
        return times
    if "|" in value:  # amount|unit
        amount, unit = value.split("|", 1)
        unit_label = label_of(unit) if is_entity(unit) else None
        return [f"{text} {unit_label}" if unit_label else text for text in amount_texts(amount)]
    text = _MONOLINGUAL.fullmatch(value)
    if text is not None:
        return [text.group(1)]
    point = _COORDINATE.fullmatch(value)
    if point is not None:
        return [f"{float(point.group(1)):g}, {float(point.group(2)):g}"]
    return [value]
