"""The kind of a value, which a distractor must share with the gold
(docs/benchmark-export.md#option-kind-agreement).

A value's *kind keys*: for an item, its classes (P31 and P279 in the snapshot its label is read
from, :mod:`kgdiff.export.words.names`); for a time, how it is written (its precision as written
or, past millennia, its scale; its era; its calendar mark: ``time day``, ``time year BCE``,
``time day (Julian)``, ``time million years BCE``); for
a quantity, its unit, its sign and its order of magnitude (``quantity 1 +5`` for 634,463
people); for a monolingual text, its language (``text ru``); other strings (URLs,
identifiers) have none and are of the kind of their relation. A distractor agrees with a gold
whose keys it shares; a gold quantity also accepts the orders of magnitude next to its own
(:func:`wanted_kinds`), drawn after its own.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from kgdiff.portable.number_match import QUANTITY_KEY
from kgdiff.timetext import parsed_text
from kgdiff.timevalue import TimeValueError, parse_time_key

_TIME = re.compile(r"[+-]\d+-\d\d-\d\dT")
_MONOLINGUAL = re.compile(r"([a-z]{2,3}(?:-[a-z0-9]+)*):(?!//).+", re.DOTALL)
_FORMS = ((11, "day"), (10, "month"), (9, "year"), (8, "decade"), (7, "century"), (6, "millennium"))


def time_kind(value: str) -> str | None:
    """``time <form>[ BCE][ (Julian)]`` of a time value key, None for another value."""
    try:
        parsed = parse_time_key(value)
    except TimeValueError:
        return None
    precision = parsed.precision
    if precision >= 10 and not parsed.month:
        precision = 9
    elif precision >= 11 and not parsed.day:
        precision = 10
    text = parsed_text(parsed)
    scale = next((name for name in ("billion years", "million years") if name in text), "")
    form = next((name for floor, name in _FORMS if precision >= floor), scale or "coarse")
    era = " BCE" if text.endswith("BCE") or " BCE " in text else ""
    mark = " (Julian)" if text.endswith("(Julian)") else ""
    return f"time {form}{era}{mark}"


def _magnitude(amount: Decimal) -> int:
    """The exponent of ``amount``'s leading digit, exactly (a float's log10 rounds
    999999999999.998 up to 12)."""
    return abs(amount).adjusted() if amount else 0


def quantity_parts(value: str) -> tuple[str, str, int] | None:
    """A quantity value key's unit, sign and order of magnitude, None for another value."""
    found = QUANTITY_KEY.fullmatch(value)
    if found is None:
        return None
    try:
        amount = Decimal(found.group(1))
    except InvalidOperation:
        return None
    if not amount.is_finite():
        return None
    sign = "-" if amount < 0 else ("0" if amount == 0 else "+")
    return found.group(2), sign, _magnitude(amount)


def _quantity_key(unit: str, sign: str, magnitude: int) -> str:
    return f"quantity {unit} {sign}{magnitude}"


def value_kinds(value: str) -> tuple[str, ...]:
    """The kind keys of a value that is not an entity (see the module's docstring)."""
    kind = time_kind(value) if _TIME.match(value) else None
    if kind is not None:
        return (kind,)
    parts = quantity_parts(value)
    if parts is not None:
        return (_quantity_key(*parts),)
    text = _MONOLINGUAL.fullmatch(value)
    if text is not None:
        return (f"text {text.group(1)}",)
    return ()


def wanted_kinds(value: str, kinds: tuple[str, ...]) -> tuple[str, ...]:
    """The kind keys a gold ``value`` (of keys ``kinds``) accepts distractors of, in the
    order they are drawn: its own, then, for a quantity, the next smaller and larger orders
    of magnitude."""
    parts = quantity_parts(value)
    if parts is None or parts[1] == "0":
        return kinds
    unit, sign, magnitude = parts
    return (*kinds, *(_quantity_key(unit, sign, magnitude + step) for step in (-1, 1)))
