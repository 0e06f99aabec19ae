"""A Wikidata JSON dump of real entities (tests/data: Douglas Adams, Germany) and synthetic ones
dated in deep time, before the common era, past year 9999 and in the Julian calendar, at every
precision 0-14 (issue 34, finding 11), as current dumps write them: the universe (Q1) with its
inception ``-13798000000-00-00T00:00:00Z`` at precision 3.

Two dumps (an older and a newer snapshot) differ in one statement, so timelines have a record
interval. ``EXPECTED_TEXTS`` is what a person reads for each synthetic date.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.paths import DATA

GREGORIAN = "http://www.wikidata.org/entity/Q1985727"
JULIAN = "http://www.wikidata.org/entity/Q1985786"
DEEP = "Q900000001"
"""The synthetic entity that holds one dated event per precision and sign."""
REAL = ("Q42", "Q183")

# (value item, time, precision, calendar, what a person reads)
EVENTS: list[tuple[str, str, int, str, str]] = [
    ("Q900000100", "-4540000000-00-00T00:00:00Z", 0, GREGORIAN, "5 billion years BCE"),
    ("Q900000101", "-4500000000-00-00T00:00:00Z", 1, GREGORIAN, "4.5 billion years BCE"),
    ("Q900000102", "-3770000000-00-00T00:00:00Z", 2, GREGORIAN, "3.77 billion years BCE"),
    ("Q900000103", "-66000000-00-00T00:00:00Z", 3, GREGORIAN, "66 million years BCE"),
    ("Q900000104", "-300000-00-00T00:00:00Z", 4, GREGORIAN, "300,000 BCE"),
    ("Q900000105", "-10000-00-00T00:00:00Z", 5, GREGORIAN, "10,000 BCE"),
    ("Q900000106", "-3000-00-00T00:00:00Z", 6, GREGORIAN, "3rd millennium BCE"),
    ("Q900000107", "-0500-00-00T00:00:00Z", 7, GREGORIAN, "5th century BCE"),
    ("Q900000108", "-0044-00-00T00:00:00Z", 8, GREGORIAN, "40s BCE"),
    ("Q900000109", "-0044-00-00T00:00:00Z", 9, JULIAN, "44 BCE"),
    ("Q900000110", "-0044-03-00T00:00:00Z", 10, JULIAN, "March 44 BCE (Julian)"),
    ("Q900000111", "-0044-03-15T00:00:00Z", 11, JULIAN, "15 March 44 BCE (Julian)"),
    ("Q900000112", "+0000-00-00T00:00:00Z", 9, GREGORIAN, "1 BCE"),
    ("Q900000113", "+0500-00-00T00:00:00Z", 7, GREGORIAN, "5th century"),
    ("Q900000114", "+1630-00-00T00:00:00Z", 9, GREGORIAN, "1630"),
    ("Q900000115", "+1582-10-04T00:00:00Z", 11, JULIAN, "4 October 1582 (Julian)"),
    ("Q900000116", "+1700-02-29T00:00:00Z", 11, JULIAN, "29 February 1700 (Julian)"),
    ("Q900000117", "+1830-10-04T00:00:00Z", 12, GREGORIAN, "4 October 1830"),
    ("Q900000118", "+1830-10-04T00:00:00Z", 13, GREGORIAN, "4 October 1830"),
    ("Q900000119", "+1830-10-04T00:00:00Z", 14, GREGORIAN, "4 October 1830"),
    ("Q900000120", "+12345-00-00T00:00:00Z", 9, GREGORIAN, "12345"),
    ("Q900000121", "+12345-06-15T00:00:00Z", 11, GREGORIAN, "15 June 12345"),
    ("Q900000122", "+5000000000-00-00T00:00:00Z", 0, GREGORIAN, "5 billion years CE"),
]
UNIVERSE_INCEPTION = "-13798000000-00-00T00:00:00Z"
EXPECTED_TEXTS = {
    (time, precision, calendar): text for _, time, precision, calendar, text in EVENTS
} | {(UNIVERSE_INCEPTION, 3, GREGORIAN): "13.798 billion years BCE"}


def _time(time: str, precision: int, calendar: str = GREGORIAN) -> dict[str, Any]:
    return {
        "time": time,
        "timezone": 0,
        "before": 0,
        "after": 0,
        "precision": precision,
        "calendarmodel": calendar,
    }


def _time_snak(pid: str, time: str, precision: int, calendar: str = GREGORIAN) -> dict[str, Any]:
    return {
        "snaktype": "value",
        "property": pid,
        "datatype": "time",
        "datavalue": {"type": "time", "value": _time(time, precision, calendar)},
    }


def _item_snak(pid: str, qid: str) -> dict[str, Any]:
    value = {"entity-type": "item", "numeric-id": int(qid[1:]), "id": qid}
    return {
        "snaktype": "value",
        "property": pid,
        "datatype": "wikibase-item",
        "datavalue": {"type": "wikibase-entityid", "value": value},
    }


def _place_snak(latitude: float, longitude: float) -> dict[str, Any]:
    """Coordinates (P625): the export asks a country (P17) only of a place."""
    value = {"latitude": latitude, "longitude": longitude, "precision": 0.01,
             "globe": "http://www.wikidata.org/entity/Q2"}  # fmt: skip
    return {
        "snaktype": "value",
        "property": "P625",
        "datatype": "globe-coordinate",
        "datavalue": {"type": "globecoordinate", "value": value},
    }


def _unknown(pid: str, datatype: str = "time") -> dict[str, Any]:
    return {"snaktype": "somevalue", "property": pid, "datatype": datatype}


def _statement(sid: str, mainsnak: dict[str, Any], *qualifiers: dict[str, Any]) -> dict[str, Any]:
    statement: dict[str, Any] = {
        "id": sid,
        "type": "statement",
        "rank": "normal",
        "mainsnak": mainsnak,
    }
    if qualifiers:
        by_pid: dict[str, list[dict[str, Any]]] = {}
        for snak in qualifiers:
            by_pid.setdefault(snak["property"], []).append(snak)
        statement["qualifiers"] = by_pid
        statement["qualifiers-order"] = list(by_pid)
    return statement


def _entity(qid: str, label: str, claims: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    return {
        "type": "item",
        "id": qid,
        "labels": {"en": {"language": "en", "value": label}},
        "descriptions": {},
        "aliases": {},
        "claims": claims,
        "sitelinks": {},
        "lastrevid": 1,
    }


def universe(newer: bool) -> dict[str, Any]:
    """Q1 as current dumps have it: inception at precision 3 (million years), the Big Bang as a
    significant event at that point in time, and (in the newer snapshot) the stelliferous era
    from 13.6 billion years BCE with an unknown end."""
    events = [
        _statement(
            "Q1$bigbang",
            _item_snak("P793", "Q323"),
            _time_snak("P585", UNIVERSE_INCEPTION, 3),
        )
    ]
    if newer:
        events.append(
            _statement(
                "Q1$stelliferous",
                _item_snak("P793", "Q900000200"),
                _time_snak("P580", "-13600000000-00-00T00:00:00Z", 1),
                _unknown("P582"),
            )
        )
    claims = {
        "P31": [_statement("Q1$class", _item_snak("P31", "Q36906466"))],
        "P571": [_statement("Q1$inception", _time_snak("P571", UNIVERSE_INCEPTION, 3))],
        "P793": events,
    }
    return _entity("Q1", "universe", claims)


def deep_entity() -> dict[str, Any]:
    """One significant-event statement per entry of ``EVENTS`` (its date as the point in
    time), a span from 66 million years BCE to year 12345, an unknown point in time, an
    unknown start with a Julian end, and dates as main values (P571, P576)."""
    events = [
        _statement(f"{DEEP}${qid}", _item_snak("P793", qid), _time_snak("P585", t, p, c))
        for qid, t, p, c, _ in EVENTS
    ]
    events += [
        _statement(
            f"{DEEP}$span",
            _item_snak("P793", "Q900000201"),
            _time_snak("P580", "-66000000-00-00T00:00:00Z", 3),
            _time_snak("P582", "+12345-06-15T00:00:00Z", 11),
        ),
        _statement(f"{DEEP}$unknown", _item_snak("P793", "Q900000202"), _unknown("P585")),
        _statement(
            f"{DEEP}$julian",
            _item_snak("P793", "Q900000203"),
            _unknown("P580"),
            _time_snak("P582", "+1582-10-04T00:00:00Z", 11, JULIAN),
        ),
    ]
    claims = {
        "P793": events,
        "P571": [
            _statement(f"{DEEP}$inception", _time_snak("P571", "-66000000-00-00T00:00:00Z", 3))
        ],
        "P576": [_statement(f"{DEEP}$dissolved", _time_snak("P576", "+12345-00-00T00:00:00Z", 9))],
        "P577": [_statement(f"{DEEP}$unknown-date", _unknown("P577"))],
    }
    return _entity(DEEP, "deep time", claims)


CITY, STATE, CAPITAL, LAND = "Q900000301", "Q900000302", "Q900000303", "Q900000305"


def chain_entities() -> Iterator[dict[str, Any]]:
    """A chain country (P17) → capital (P36) whose hops started before the common era (the
    city's country since 21 April 753 BCE, Julian, when it was founded; the state's capital
    since 27 BCE), and one whose first hop started 4.54 billion years ago, when it formed; both
    have coordinates, as the export asks a country only of a place. The capital's label shares
    no word with the others', as a gold that spells a name in its chain is left out."""
    state = _item_snak("P17", STATE)
    founded = "-0753-04-21T00:00:00Z"
    yield _entity(
        CITY,
        "ancient city",
        {
            "P17": [_statement(f"{CITY}$country", state, _time_snak("P580", founded, 11, JULIAN))],
            "P571": [_statement(f"{CITY}$inception", _time_snak("P571", founded, 11, JULIAN))],
            "P625": [_statement(f"{CITY}$place", _place_snak(41.89, 12.49))],
        },
    )
    yield _entity(
        STATE,
        "ancient state",
        {
            "P36": [
                _statement(
                    f"{STATE}$capital",
                    _item_snak("P36", CAPITAL),
                    _time_snak("P580", "-0027-00-00T00:00:00Z", 9),
                )
            ]
        },
    )
    yield _entity(CAPITAL, "old seat", {})
    formed = "-4540000000-00-00T00:00:00Z"
    yield _entity(
        LAND,
        "deep land",
        {
            "P17": [_statement(f"{LAND}$country", state, _time_snak("P580", formed, 0))],
            "P571": [_statement(f"{LAND}$inception", _time_snak("P571", formed, 0))],
            "P625": [_statement(f"{LAND}$place", _place_snak(-25.0, 131.0))],
        },
    )


PEERS = (
    ("Q900000401", "first galaxy", "P571", "-13400000000-00-00T00:00:00Z", 3),
    ("Q900000402", "old star", "P571", "-10200000000-00-00T00:00:00Z", 3),
    ("Q900000403", "young sea", "P571", "-5330000-00-00T00:00:00Z", 3),
    ("Q900000407", "old reef", "P571", "-252000000-00-00T00:00:00Z", 3),
    ("Q900000408", "lost range", "P571", "-201000000-00-00T00:00:00Z", 3),
    ("Q900000404", "far dynasty", "P576", "+10500-00-00T00:00:00Z", 9),
    ("Q900000405", "late league", "P576", "+11020-00-00T00:00:00Z", 9),
    ("Q900000406", "last guild", "P576", "+15000-00-00T00:00:00Z", 9),
)
"""Entities whose dates are of the deep ones' kinds (billions and millions of years BCE; a
year past 9999), so that a benchmark's multiple-choice records about the universe and deep
time have distractors of their answers' kind."""


def peer_entities() -> Iterator[dict[str, Any]]:
    """One entity per entry of ``PEERS``, its one date as a main value."""
    for qid, label, pid, time, precision in PEERS:
        yield _entity(
            qid, label, {pid: [_statement(f"{qid}$date", _time_snak(pid, time, precision))]}
        )


def real_entities() -> Iterator[dict[str, Any]]:
    """Douglas Adams and Germany, as tests/data has them."""
    yield json.loads((DATA / "wd_Q42.json").read_text(encoding="utf-8"))
    yield json.loads((DATA / "native" / "items_Q183.json").read_text(encoding="utf-8"))


def write_dump(path: Path, newer: bool) -> Path:
    """The dump of the older (``newer=False``) or newer snapshot, as a JSON dump file."""
    entities = [
        *real_entities(),
        universe(newer),
        deep_entity(),
        *chain_entities(),
        *peer_entities(),
    ]
    lines = ",\n".join(json.dumps(entity) for entity in entities)
    path.write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    return path
