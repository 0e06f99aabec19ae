"""A snak's value (its value key and datatype) as the RDF terms of Wikidata's mapping: the
simple value (``ps:``, ``pq:``, ``wdt:``) and, for times, quantities and coordinates, the value
node (``psv:``, ``pqv:``) with its details.

What the store keeps of a value is its value key, so the export writes what the key holds:
a quantity's bounds and a coordinate's precision are not kept by the store and are not
written (Wikidata writes ``quantityUpperBound`` / ``quantityLowerBound`` and ``geoPrecision``);
a time's time zone is written as 0 (the store does not keep it; Wikidata's are 0).
"""

from __future__ import annotations

import hashlib
from decimal import Decimal
from urllib.parse import quote

from kgdiff.export.rdf import ntriples as nt
from kgdiff.export.rdf.times import parse_key, xsd_datetime
from kgdiff.wikibase_rdf import COMMONS_DATA, MEDIA

EARTH = "Q2"
ONE = "1"
ENTITY_TYPES = frozenset(
    {"wikibase-item", "wikibase-property", "wikibase-lexeme", "wikibase-form", "wikibase-sense"}
)
IRI_TYPES = frozenset({"url", "commonsMedia", "geo-shape", "tabular-data"})

Pairs = list[tuple[str, str]]


def _iri_value(datatype: str, value: str) -> str:
    """The IRI of a value Wikibase writes as an IRI (a URL, a Commons file or data page)."""
    if datatype == "commonsMedia":
        return nt.iri(MEDIA + quote(value, safe=""))
    if datatype in ("geo-shape", "tabular-data"):
        return nt.iri(COMMONS_DATA + quote(value, safe=";:@$!*(),/~"))
    return nt.iri(value)


def _decimal(amount: str) -> str:
    if "e" in amount or "E" in amount:
        # a float read from an old dump may be kept as 1e-05, which xsd:decimal does not allow
        amount = ("+" if amount.startswith("+") else "") + format(Decimal(amount), "f")
    return nt.typed(amount, nt.XSD + "decimal")


def _number(text: str) -> str:
    """A coordinate as Wikibase (PHP) writes a float: no exponent, no ``.0`` of a whole number
    (the key holds Python's ``repr``, which writes 8.0 where PHP writes 8)."""
    if "e" in text or "E" in text:
        text = format(Decimal(text), "f")
    return text[:-2] if text.endswith(".0") else text


def _split_coordinate(value: str) -> tuple[str, str, str] | None:
    parts = value.split(",")
    if len(parts) != 3:
        return None
    return _number(parts[0]), _number(parts[1]), parts[2] or EARTH


def _coordinate(value: str) -> str | None:
    parts = _split_coordinate(value)
    if parts is None:
        return None
    lat, lon, globe = parts
    point = f"Point({lon} {lat})"
    if globe != EARTH:
        point = f"<{nt.WD}{globe}> {point}"
    return nt.typed(point, nt.GEO_WKT)


def _time(value: str) -> str | None:
    key = parse_key(value)
    text = xsd_datetime(key) if key else None
    return nt.typed(text, nt.XSD + "dateTime") if text else None


def simple_value(datatype: str | None, value_type: str | None, value: str) -> str | None:
    """The simple RDF term of a value, None when Wikibase writes no simple value for it."""
    if value_type == "wikibase-entityid" or datatype in ENTITY_TYPES:
        return nt.entity(value)
    if value_type == "time":
        return _time(value)
    if value_type == "quantity":
        return _decimal(value.split("|", 1)[0])
    if value_type == "globecoordinate":
        return _coordinate(value)
    if value_type == "monolingualtext":
        lang, _, text = value.partition(":")
        return nt.tagged(text, lang)
    if datatype in IRI_TYPES:
        return _iri_value(datatype, value)
    return nt.plain(value)


def value_node_iri(value_type: str, value: str) -> str:
    """The IRI of a value node. Wikibase names it by a hash of its PHP value object, which
    cannot be rebuilt from the store; this is a hash of the value key (equal values share one
    node, as in Wikidata)."""
    digest = hashlib.md5(f"{value_type}|{value}".encode(), usedforsecurity=False).hexdigest()
    return nt.iri(nt.WDV + digest)


def _time_node(value: str) -> Pairs | None:
    key = parse_key(value)
    text = xsd_datetime(key) if key else None
    if key is None or text is None:
        return None
    return [
        (nt.RDF_TYPE, nt.wb("TimeValue")),
        (nt.wb("timeValue"), nt.typed(text, nt.XSD + "dateTime")),
        (nt.wb("timePrecision"), nt.typed(str(key.precision), nt.XSD + "integer")),
        (nt.wb("timeTimezone"), nt.typed("0", nt.XSD + "integer")),
        (nt.wb("timeCalendarModel"), nt.entity(key.calendar)),
    ]


def _quantity_node(value: str) -> Pairs:
    amount, _, unit = value.partition("|")
    # Wikibase writes the unit "1" (no unit) as Q199, the number one
    unit_iri = nt.entity("Q199") if unit in ("", ONE) else nt.entity(unit)
    return [
        (nt.RDF_TYPE, nt.wb("QuantityValue")),
        (nt.wb("quantityAmount"), _decimal(amount)),
        (nt.wb("quantityUnit"), unit_iri),
    ]


def _coordinate_node(value: str) -> Pairs | None:
    parts = _split_coordinate(value)
    if parts is None:
        return None
    lat, lon, globe = parts
    return [
        (nt.RDF_TYPE, nt.wb("GlobecoordinateValue")),
        (nt.wb("geoLatitude"), _decimal(lat)),
        (nt.wb("geoLongitude"), _decimal(lon)),
        (nt.wb("geoGlobe"), nt.entity(globe)),
    ]


def value_node(value_type: str | None, value: str) -> Pairs | None:
    """The predicate-object pairs of the value node of a time, quantity or coordinate (None
    for other values, which have no value node)."""
    if value_type == "time":
        return _time_node(value)
    if value_type == "quantity":
        return _quantity_node(value)
    if value_type == "globecoordinate":
        return _coordinate_node(value)
    return None


def skolem(*parts: str) -> str:
    """A skolem IRI for an unknown value (``somevalue``), stable for the same snak: WDQS
    writes such IRIs where Wikibase writes blank nodes, and they survive chunked writing."""
    digest = hashlib.md5("|".join(parts).encode(), usedforsecurity=False).hexdigest()
    return nt.iri(nt.GENID + digest)
