"""Light, seeded perturbations so copies of one template differ like real revisions do.

Statements are dropped (``DROP_STATEMENT`` each) or added (``ADD_STATEMENT`` per statement
map: a copy of an item-valued statement with a new GUID and target), time values have their
year shifted (``SHIFT_TIME`` per time snak) and ranks changed (``RERANK`` per statement).
Every function draws from the caller's RNG, so the call order fixes the output.
"""

from __future__ import annotations

import random
import uuid

import orjson

from bench.gendump.common import TIME_RE, Entity, snak_hash

DROP_STATEMENT = 0.03
ADD_STATEMENT = 0.05  # per entity
SHIFT_TIME = 0.10  # per time snak (main snaks and qualifiers)
RERANK = 0.01
YEAR_SHIFTS = (-3, -2, -1, 1, 2, 3)


def dropped(rng: random.Random) -> bool:
    """Whether the next statement is left out."""
    return rng.random() < DROP_STATEMENT


def maybe_rerank(rng: random.Random, statement: Entity) -> None:
    """Now and then make a statement preferred or deprecated."""
    if rng.random() < RERANK:
        statement["rank"] = rng.choice(("preferred", "deprecated"))


def maybe_shift_time(rng: random.Random, snak: Entity) -> None:
    """Now and then shift the year of a time snak, re-hashing it if it has a hash."""
    if rng.random() < SHIFT_TIME:
        delta = rng.choice(YEAR_SHIFTS)
        if shift_year(snak["datavalue"]["value"], delta) and "hash" in snak:
            snak["hash"] = snak_hash(snak)


def shift_year(value: Entity, delta: int) -> bool:
    """Shift a CE time value with at least year precision by ``delta`` years."""
    match = TIME_RE.match(value.get("time", ""))
    if match is None or match[1] != "+" or int(value.get("precision", 0)) < 9:
        return False
    year = int(match[2]) + delta
    if not 1 <= year <= 2100:
        return False
    month_day = match[3]
    if month_day == "-02-29" and not (year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)):
        month_day = "-02-28"
    value["time"] = f"+{year:04d}{month_day}{match[4]}"
    return True


def maybe_add_statement(
    rng: random.Random, groups: dict[str, list[Entity]], new_id: str, item_refs: int
) -> bool:
    """Now and then add a statement to ``groups``; whether one was added."""
    if rng.random() < ADD_STATEMENT:
        return add_statement(rng, groups, new_id, item_refs)
    return False


def add_statement(
    rng: random.Random, groups: dict[str, list[Entity]], new_id: str, item_refs: int
) -> bool:
    """Copy an item-valued statement, give it a new GUID and another target in ``Q1..item_refs``."""
    candidates = [
        s
        for group in groups.values()
        for s in group
        if s["mainsnak"].get("datatype") == "wikibase-item" and "datavalue" in s["mainsnak"]
    ]
    if not candidates:
        return False
    statement: Entity = orjson.loads(orjson.dumps(rng.choice(candidates)))
    for key in ("qualifiers", "qualifiers-order", "references"):
        statement.pop(key, None)
    statement["rank"] = "normal"
    statement["id"] = f"{new_id}${uuid.UUID(int=rng.getrandbits(128), version=4)}"
    value = statement["mainsnak"]["datavalue"]["value"]
    number = rng.randint(1, item_refs)
    value["numeric-id"], value["id"] = number, f"Q{number}"
    statement["mainsnak"]["hash"] = snak_hash(statement["mainsnak"])
    groups[statement["mainsnak"]["property"]].append(statement)
    return True
