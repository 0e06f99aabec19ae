"""Independent, deliberately simple Python reference for the change nature of an evolved group
(docs/classification.md, "Change nature"): written from the spec alone, sharing no code with
``kgdiff`` or the SQL, for tests/temporal_reference.py and the property tests.

Decisions where the spec leaves room (the SQL must match them):

* A value's kind comes from the value types of its non-deprecated statements in the snapshots
  read for the group (NULL types ignored): exactly one type, else it is compared as written.
* "Whitespace" is space, tab, carriage return, line feed and the no-break space (U+00A0);
  case is Python's ``str.lower``.
* A coordinate's precision is read from the decimals written (``50.0`` is a whole degree); a
  coordinate written with an exponent is compared as written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

NATURES = ("reformatted", "refined", "substantive")
SPACES = "[ \t\r\n\u00a0]+"
TIME_KEY = re.compile(r"^[+-][0-9]{1,6}-[0-9]{2}-[0-9]{2}T[^|]*[|][0-9]{1,2}[|]")
DECIMAL_COORDINATE = re.compile(r"^-?[0-9]+[.][0-9]+,-?[0-9]+[.][0-9]+,")
URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://([^/?#]*)(.*)$", re.S)
PLAIN_AMOUNT = re.compile(r"[+-]?[0-9]+([.][0-9]+)?")
KINDS = {"time": "time", "quantity": "quantity", "globecoordinate": "coordinate",
         "monolingualtext": "text", "string": "string"}  # fmt: skip


@dataclass(frozen=True)
class ValueFacts:
    """What a group's statements say of one of its values: their value types (not NULL) and
    the days of the time values among them (the least time_lo, the greatest time_hi)."""

    types: frozenset[str]
    lo: date | None
    hi: date | None


@dataclass(frozen=True)
class Form:
    """A value's normal form: ``key`` is equal for the same value written otherwise; the
    other fields say what a more precise value must satisfy (times and coordinates)."""

    key: tuple[object, ...]
    kind: str
    precision: int | None = None
    lo: date | None = None
    hi: date | None = None
    lat: float | None = None
    lon: float | None = None
    lat_digits: int | None = None
    lon_digits: int | None = None
    globe: str | None = None


def kind_of(value: str, facts: ValueFacts, ids: bool) -> str:
    """time, quantity, coordinate, text, url, id, string or other."""
    if len(facts.types) != 1:
        return "other"
    kind = KINDS.get(next(iter(facts.types)), "other")
    if kind == "time" and not (facts.lo and facts.hi and TIME_KEY.search(value)):
        return "other"
    if kind == "coordinate" and not DECIMAL_COORDINATE.search(value):
        return "other"
    if kind == "string" and URL.search(value):
        return "url"
    if kind == "string" and ids:
        return "id"
    return kind


def spaced(text: str) -> str:
    """Whitespace runs as one space, no space at either end, lower case."""
    return re.sub(SPACES, " ", text).strip(" ").lower()


def url_key(value: str) -> str:
    """A URL without what does not change the page: http/https, ``www.``, the host's case,
    trailing slashes."""
    match = URL.search(value)
    assert match is not None
    scheme, host, rest = match.group(1).lower(), match.group(2).lower(), match.group(3)
    scheme = "" if scheme in ("http", "https") else scheme
    host = host[4:] if host.startswith("www.") else host
    return f"{scheme}//{host}{rest.rstrip('/')}"


def id_key(value: str) -> str:
    """An identifier without whitespace or hyphens, lower case, a number without leading
    zeros."""
    squeezed = re.sub("[ \t\r\n\u00a0-]+", "", value).lower()
    if re.fullmatch("[0-9]+", squeezed):
        return squeezed.lstrip("0") or "0"
    return squeezed


def quantity_key(value: str) -> str | None:
    """The amount as a decimal without '+', leading or trailing zeros, and the unit; None for
    an amount that is not a plain decimal."""
    if "|" not in value:
        return None
    amount, unit = value.split("|", 1)[0], value.rsplit("|", 1)[1]
    if not PLAIN_AMOUNT.fullmatch(amount):
        return None
    whole = re.search("[0-9]+", amount)
    assert whole is not None
    point = re.search("[.]([0-9]+)$", amount)
    fraction = point.group(1).rstrip("0") if point else ""
    magnitude = (whole.group(0).lstrip("0") or "0") + (f".{fraction}" if fraction else "")
    negative = amount.startswith("-") and not re.fullmatch("-[0.]+", amount)
    return ("-" if negative else "") + magnitude + "|" + unit


def decimals(number: str) -> int:
    """Decimals written (Python writes a whole number of degrees as 50.0: none)."""
    written = number.split(".", 1)[1]
    return 0 if written == "0" else len(written)


def form_of(value: str, facts: ValueFacts, ids: bool) -> Form:
    """The normal form of a value of a group (``ids``: the group holds external identifiers)."""
    kind = kind_of(value, facts, ids)
    if kind == "time":
        found = re.search("[|]([0-9]+)[|]", value)
        assert found is not None
        precision = int(found.group(1))
        return Form(("t", precision, facts.lo, facts.hi), kind, precision, facts.lo, facts.hi)
    if kind == "coordinate":
        lat, lon, globe = value.split(",")[0], value.split(",")[1], value.rsplit(",", 1)[1]
        return Form(("v", value), kind, lat=float(lat), lon=float(lon), globe=globe,
                    lat_digits=decimals(lat), lon_digits=decimals(lon))  # fmt: skip
    if kind == "url":
        return Form(("u", url_key(value)), kind)
    if kind == "id":
        return Form(("i", id_key(value)), kind)
    if kind == "string":
        return Form(("s", spaced(value)), kind)
    if kind == "text":
        language, _, text = value.partition(":") if ":" in value else ("", "", "")
        return Form(("m", language.lower(), spaced(text)), kind)
    quantity = quantity_key(value) if kind == "quantity" else None
    return Form(("q", quantity) if quantity is not None else ("v", value), kind)


def refines(fine: Form, coarse: Form) -> bool:
    """Whether ``fine`` is more precise than ``coarse`` and lies inside its span."""
    if fine.kind != coarse.kind:
        return False
    if fine.kind == "time":
        assert fine.precision is not None and coarse.precision is not None
        assert fine.lo and fine.hi and coarse.lo and coarse.hi
        return fine.precision > coarse.precision and coarse.lo <= fine.lo and fine.hi <= coarse.hi
    if fine.kind != "coordinate" or fine.globe != coarse.globe:
        return False
    digits = (fine.lat_digits, fine.lon_digits, coarse.lat_digits, coarse.lon_digits)
    fine_lat, fine_lon, coarse_lat, coarse_lon = (d or 0 for d in digits)
    more = fine_lat + fine_lon > coarse_lat + coarse_lon
    if fine_lat < coarse_lat or fine_lon < coarse_lon or not more:
        return False
    assert fine.lat is not None and fine.lon is not None
    assert coarse.lat is not None and coarse.lon is not None
    near_lat = abs(fine.lat - coarse.lat) <= 0.5 * 10.0**-coarse_lat + 1e-9
    return near_lat and abs(fine.lon - coarse.lon) <= 0.5 * 10.0**-coarse_lon + 1e-9


def step_nature(old: set[str], new: set[str], forms: dict[str, Form]) -> int:
    """0: nothing changed; 1 reformatted; 2 refined; 3 substantive."""
    if old == new:
        return 0
    old_forms = {forms[value].key: forms[value] for value in old}
    new_forms = {forms[value].key: forms[value] for value in new}
    if old_forms.keys() == new_forms.keys():
        return 1
    gone = [form for key, form in old_forms.items() if key not in new_forms]
    came = [form for key, form in new_forms.items() if key not in old_forms]
    kept = all(any(refines(fine, form) for fine in new_forms.values()) for form in gone)
    placed = all(any(refines(form, coarse) for coarse in old_forms.values()) for form in came)
    return 2 if kept and placed else 3


def change_nature(sets: Iterable[set[str]], facts: dict[str, ValueFacts], ids: bool) -> str:
    """The nature of an evolved group's change over its sets at init, cutoff and current: the
    greater of its two steps' (init → cutoff, cutoff → current)."""
    initial, at_cutoff, now = sets
    forms = {value: form_of(value, facts[value], ids) for value in initial | at_cutoff | now}
    worst = max(step_nature(initial, at_cutoff, forms), step_nature(at_cutoff, now, forms))
    assert worst > 0, "an evolved group's sets differ"
    return NATURES[worst - 1]
