"""Vocabulary shared by the generator: the entity type, the type mix and the line format.

Every other module of :mod:`bench.gendump` builds on these: the entity mix is used both to
predict the mean line size (:mod:`bench.gendump.templates`) and to draw entities
(:mod:`bench.gendump.emit`); ``encode_line`` is the one serialisation of a dump line, and
``snak_hash`` the one content hash given to snaks when they are normalised or changed.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import orjson

Entity = dict[str, Any]

MIB = 1 << 20

# Share of emitted entity lines per non-item type; items take the rest.
PROPERTY_SHARE = 0.015  # each real property is emitted at most once, with its own P-id
LEXEME_SHARE = 0.006
MEDIAINFO_SHARE = 0.002

ID_PREFIX = {"item": "Q", "property": "P", "lexeme": "L", "mediainfo": "M"}

# sign, year (any number of digits), -MM-DD, the rest (T..., Z)
TIME_RE = re.compile(r"^([+-])(\d+)(-\d\d-\d\d)(T.*)$")

_ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))


def encode_line(entity: Entity) -> bytes:
    """One dump line, escaped like PHP ``json_encode``: ``\\uXXXX`` for non-ASCII and ``\\/``."""
    return _ENCODER.encode(entity).replace("/", "\\/").encode("ascii")


def snak_hash(snak: Entity) -> str:
    """A 40-hex content hash for a snak (stable, not Wikibase's own algorithm)."""
    body = {k: snak[k] for k in ("snaktype", "property", "datavalue") if k in snak}
    return hashlib.sha1(orjson.dumps(body)).hexdigest()
