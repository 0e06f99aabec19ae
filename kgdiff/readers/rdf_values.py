"""Wikibase RDF values back to the datavalues of Wikibase's canonical JSON.

The reverse of Wikibase's RDF mapping (and of :mod:`kgdiff.export.rdf.values`): a value node
(``psv:``/``pqv:``/``prv:``) gives a time, a quantity or a coordinate whole; a simple value
(``ps:``/``pq:``/``pr:``) gives an item, a string, an URL, a Commons file, a monolingual text.
Terms are read by their lexical form (``str(term)``), never through rdflib's Python values,
so ``+12`` stays ``+12`` and a BCE ``xsd:dateTime`` is read as written.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from rdflib import BNode, Literal, URIRef
from rdflib.term import Node

from kgdiff.calendars import date_of_day, day_number
from kgdiff.wikibase_rdf import COMMONS_DATA, GEO_WKT, MEDIA, WD, XSD

GENID = "/.well-known/genid/"
GREGORIAN = WD + "Q1985727"
JULIAN = WD + "Q1985786"
EARTH = WD + "Q2"
UNIT_ONE = WD + "Q199"
YEAR, MONTH, DAY = 9, 10, 11

ENTITY_IRI = re.compile(r".*/entity/([QPLM][1-9]\d*)(?:-([FS][1-9]\d*))?")
_XSD_TIME = re.compile(r"(-?)(\d{4,})-(\d\d)-(\d\d)T")
_POINT = re.compile(r"\s*(?:<([^>]*)>\s*)?Point\(\s*(\S+)\s+(\S+)\s*\)\s*", re.IGNORECASE)
ENTITY_TYPES = {"Q": "item", "P": "property", "L": "lexeme", "M": "mediainfo"}
SUB_TYPES = {"F": "form", "S": "sense"}

DATATYPES = {
    "WikibaseItem": "wikibase-item",
    "WikibaseProperty": "wikibase-property",
    "WikibaseLexeme": "wikibase-lexeme",
    "WikibaseForm": "wikibase-form",
    "WikibaseSense": "wikibase-sense",
    "CommonsMedia": "commonsMedia",
    "GlobeCoordinate": "globe-coordinate",
    "Monolingualtext": "monolingualtext",
    "Quantity": "quantity",
    "String": "string",
    "Time": "time",
    "Url": "url",
    "ExternalId": "external-id",
    "Math": "math",
    "GeoShape": "geo-shape",
    "TabularData": "tabular-data",
    "MusicalNotation": "musical-notation",
    "EntitySchema": "entity-schema",
}
"""Wikibase's ontology classes of property types (``wikibase:WikibaseItem``) → datatype ids."""

DataValue = dict[str, Any]


def datatype_id(iri: str) -> str:
    """``http://wikiba.se/ontology#WikibaseItem`` → ``wikibase-item`` (unknown names in
    kebab case, as Wikibase forms them)."""
    name = iri.rpartition("#")[2]
    known = DATATYPES.get(name)
    if known is not None:
        return known
    return re.sub(r"(?<!^)(?=[A-Z])", "-", name).lower()


def is_unknown(term: Node) -> bool:
    """An unknown value (``somevalue``): a blank node or a skolem IRI (WDQS)."""
    return isinstance(term, BNode) or (isinstance(term, URIRef) and GENID in str(term))


def entity_id(term: Node) -> str | None:
    """``wd:Q42`` → ``Q42`` (``L1-F1`` for a form), None for other terms."""
    if not isinstance(term, URIRef):
        return None
    found = ENTITY_IRI.fullmatch(str(term))
    if found is None:
        return None
    return found[1] + (f"-{found[2]}" if found[2] else "")


def wikibase_time(lexical: str, precision: int, calendar: str) -> str | None:
    """The JSON ``time`` string of a ``wikibase:timeValue``, undoing Wikibase's RDF mapping:
    a Julian date at day precision or finer was written converted to the Gregorian
    calendar; a BCE year at year precision or finer in XSD 1.1 (1 BCE is year 0). Month and
    day are zeroed below their precision, as Wikidata's JSON has them. None if unreadable."""
    found = _XSD_TIME.match(lexical.strip())
    if found is None:
        return None
    sign, year_s, month_s, day_s = found.groups()
    year = -int(year_s) if sign else int(year_s)
    month, day = int(month_s), int(day_s)
    if calendar == JULIAN and precision >= DAY:
        year, month, day = date_of_day(day_number(year, month, day, "gregorian"), "julian")
        written = year if year > 0 else year - 1
    elif year <= 0 and precision >= YEAR:
        written = year - 1  # XSD 1.1 year 0 is 1 BCE
    else:
        written = year
    if precision < MONTH:
        month = 0
    if precision < DAY:
        day = 0
    mark = "-" if written < 0 else "+"
    return f"{mark}{abs(written):04d}-{month:02d}-{day:02d}T00:00:00Z"


def _int(term: Node | None, default: int | None = None) -> int | None:
    try:
        return int(str(term)) if term is not None else default
    except ValueError:
        return default


def _float(term: Node | None) -> float | None:
    try:
        return float(str(term)) if term is not None else None
    except ValueError:
        return None


def _signed(amount: str) -> str:
    """A quantity amount as Wikibase's JSON writes it: always with a sign."""
    amount = amount.strip()
    return amount if amount[:1] in "+-" else "+" + amount


def time_node(node: dict[str, Node]) -> DataValue | None:
    """A ``wikibase:TimeValue`` node (its predicates' local names → objects) as a datavalue."""
    value, precision = node.get("timeValue"), _int(node.get("timePrecision"))
    calendar = str(node.get("timeCalendarModel", GREGORIAN))
    if value is None or precision is None:
        return None
    time = wikibase_time(str(value), precision, calendar)
    if time is None:
        return None
    fields = {
        "time": time,
        "timezone": _int(node.get("timeTimezone"), 0),
        "before": 0,
        "after": 0,
        "precision": precision,
        "calendarmodel": calendar,
    }
    return {"type": "time", "value": fields}


def quantity_node(node: dict[str, Node]) -> DataValue | None:
    """A ``wikibase:QuantityValue`` node as a datavalue (unit ``wd:Q199`` is unit ``1``)."""
    amount = node.get("quantityAmount")
    if amount is None:
        return None
    unit = str(node.get("quantityUnit", UNIT_ONE))
    fields: dict[str, str] = {
        "amount": _signed(str(amount)),
        "unit": "1" if unit == UNIT_ONE else unit,
    }
    for bound, name in (("quantityUpperBound", "upperBound"), ("quantityLowerBound", "lowerBound")):
        if bound in node:
            fields[name] = _signed(str(node[bound]))
    return {"type": "quantity", "value": fields}


def coordinate_node(node: dict[str, Node]) -> DataValue | None:
    """A ``wikibase:GlobecoordinateValue`` node as a datavalue."""
    lat, lon = _float(node.get("geoLatitude")), _float(node.get("geoLongitude"))
    if lat is None or lon is None:
        return None
    fields = {
        "latitude": lat,
        "longitude": lon,
        "altitude": None,
        "precision": _float(node.get("geoPrecision")),
        "globe": str(node.get("geoGlobe", EARTH)),
    }
    return {"type": "globecoordinate", "value": fields}


NODE_READERS = {
    "TimeValue": time_node,
    "QuantityValue": quantity_node,
    "GlobecoordinateValue": coordinate_node,
}


def entity_value(qid: str) -> DataValue:
    """``Q5`` as a ``wikibase-entityid`` datavalue."""
    head, _, sub = qid.partition("-")
    fields: dict[str, Any] = {"entity-type": SUB_TYPES.get(sub[:1], ENTITY_TYPES[head[0]])}
    if not sub:
        fields["numeric-id"] = int(head[1:])
    fields["id"] = qid
    return {"type": "wikibase-entityid", "value": fields}


def simple_time(literal: Literal) -> DataValue | None:
    """A time known only by its ``xsd:dateTime`` (no value node): day precision when the
    month and day are not 01-01, else year precision; Gregorian. A fallback (counted)."""
    found = _XSD_TIME.match(str(literal))
    if found is None:
        return None
    precision = YEAR if found[3] == "01" and found[4] == "01" else DAY
    time = wikibase_time(str(literal), precision, GREGORIAN)
    fields = {
        "time": time,
        "timezone": 0,
        "before": 0,
        "after": 0,
        "precision": precision,
        "calendarmodel": GREGORIAN,
    }
    return {"type": "time", "value": fields}


def simple_coordinate(literal: Literal) -> DataValue | None:
    """A coordinate known only by its ``Point(lon lat)`` literal (no value node)."""
    found = _POINT.fullmatch(str(literal))
    if found is None:
        return None
    globe, lon, lat = found.groups()
    node: dict[str, Node] = {"geoLatitude": Literal(lat), "geoLongitude": Literal(lon)}
    if globe:
        node["geoGlobe"] = URIRef(globe)
    return coordinate_node(node)


def simple_value(term: Node) -> tuple[DataValue | None, str | None, bool]:
    """A simple value as ``(datavalue, inferred datatype, is_fallback)``; ``is_fallback``
    when the value should have come from a value node (a time, quantity, coordinate)."""
    if isinstance(term, URIRef):
        qid = entity_id(term)
        if qid is not None:
            kind = SUB_TYPES.get(qid.partition("-")[2][:1]) or ENTITY_TYPES[qid[0]]
            return entity_value(qid), f"wikibase-{kind}", False
        text = str(term)
        if text.startswith(MEDIA):
            return {"type": "string", "value": unquote(text[len(MEDIA) :])}, "commonsMedia", False
        if text.startswith(COMMONS_DATA):
            page = unquote(text[len(COMMONS_DATA) :])
            kind = "geo-shape" if page.endswith(".map") else "tabular-data"
            return {"type": "string", "value": page}, kind, False
        return {"type": "string", "value": text}, "url", False
    if not isinstance(term, Literal):
        return None, None, False
    if term.language:
        value = {"text": str(term), "language": term.language.lower()}
        return {"type": "monolingualtext", "value": value}, "monolingualtext", False
    datatype = str(term.datatype) if term.datatype else ""
    if datatype == XSD + "dateTime":
        return simple_time(term), "time", True
    if datatype == XSD + "decimal":
        value = {"amount": _signed(str(term)), "unit": "1"}
        return {"type": "quantity", "value": value}, "quantity", True
    if datatype == GEO_WKT:
        return simple_coordinate(term), "globe-coordinate", True
    return {"type": "string", "value": str(term)}, "string", False
