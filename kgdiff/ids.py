"""Wikidata ids as users type them and as answers show them, and the language labels come in
unless another is asked for: what every layer needs of ids without asking the store
(:mod:`kgdiff.query.ids` checks ids against a store, :mod:`kgdiff.query.labels` reads labels).

``p6`` is ``P6``; a value that is no item, property or lexeme id is a usage error naming it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import pyarrow as pa
import pyarrow.compute as pc

from kgdiff.errors import UsageError

ENTITY_ID = re.compile(r"[QPL][1-9][0-9]*")
DEFAULT_LANG = "en"
"""The language of labels, descriptions and sentences unless a question names another."""


def normalise_id(value: str, what: str = "id") -> str:
    """``value`` as Wikidata writes ids (``q42`` → ``Q42``); a usage error if it is none."""
    text = value.strip().upper()
    if not ENTITY_ID.fullmatch(text):
        raise UsageError(f"{what} {value!r} is not a Wikidata id such as Q42, P31 or L7")
    return text


def normalise_ids(values: Iterable[str], what: str = "id") -> list[str]:
    """Every value normalised (:func:`normalise_id`), in order, without repeats."""
    return list(dict.fromkeys(normalise_id(value, what) for value in values))


def is_entity_id(value: object) -> bool:
    """True for an item, property or lexeme id (a value that can have a label)."""
    return isinstance(value, str) and ENTITY_ID.fullmatch(value) is not None


def repeated_ids(ids: pa.Array | pa.ChunkedArray, labels: pa.Array | pa.ChunkedArray) -> set[str]:
    """The entity ids among ``ids`` that their labels (an answer's label column, same shape,
    lists or not) repeat: the ids an answer shows without a label."""
    if pa.types.is_list(ids.type) or pa.types.is_large_list(ids.type):
        ids, labels = pc.list_flatten(ids), pc.list_flatten(labels)
    same = pc.fill_null(pc.equal(ids, labels), False)
    return {value for value in pc.filter(ids, same).to_pylist() if is_entity_id(value)}
