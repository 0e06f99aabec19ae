"""One relation's table of a catalogue file checked field by field and made a
:class:`~kgdiff.export.relations.model.Relation`; the first problem is a usage error that names
the file, the line, the relation and the field, and says what to do."""

from __future__ import annotations

import re
from difflib import get_close_matches
from typing import Any

from kgdiff.errors import UsageError
from kgdiff.export.relations.model import ContextPage, ObjectType, Relation, Templates
from kgdiff.export.relations.templates import PAST_FIELDS, TEMPLATE_FIELDS, template_problem
from kgdiff.export.relations.toml_source import TomlSource

PROPERTY_ID = re.compile(r"P[1-9][0-9]*")
ITEM_ID = re.compile(r"Q[1-9][0-9]*")
REQUIRED = ("label", "object_type", "multi_valued", "context", *TEMPLATE_FIELDS)
OPTIONAL = (
    "object_class",
    "next_hops",
    "not_asked_of",
    "places_only",
    "fixed",
    "dated_objects",
    "asked",
    *PAST_FIELDS,
)
FIELDS = (*REQUIRED, *OPTIONAL)
"""Every field of a relation, in the order files and messages list them."""


class _Table:
    """A relation's table with its source, so each check can name the line of its field."""

    def __init__(self, source: TomlSource, pid: str, values: dict[str, Any]) -> None:
        self.source, self.pid, self.values = source, pid, values

    def error(self, name: str, message: str) -> UsageError:
        line = self.source.lines.key(self.pid, name)
        return self.source.error(line, f"[{self.pid}] {name}: {message}")

    def text(self, name: str) -> str:
        value = self.values[name]
        if not isinstance(value, str) or not value.strip():
            raise self.error(name, f"expected a non-empty string in quotes, got {value!r}")
        return value

    def choice(self, name: str, allowed: list[str]) -> str:
        value = self.values[name]
        if value not in allowed:
            raise self.error(name, f"{value!r} is not one of {', '.join(map(repr, allowed))}")
        return str(value)

    def flag(self, name: str) -> bool:
        value = self.values[name]
        if not isinstance(value, bool):
            raise self.error(name, f"expected true or false (no quotes), got {value!r}")
        return value


def _check_names(table: _Table) -> None:
    for name in table.values:
        if name == "replace":  # TOML puts a key after a table header in that table
            raise table.error(name, "replace goes at the top of the file, before any table")
        if name not in FIELDS:
            close = get_close_matches(name, FIELDS, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"the fields are {', '.join(FIELDS)}"
            raise table.error(name, f"unknown field; {hint}")
    for name in REQUIRED:
        if name not in table.values:
            line = table.source.lines.table(table.pid)
            message = f"[{table.pid}] lacks the field {name!r}; add it (docs/relations.md)"
            raise table.source.error(line, message)


def _templates(table: _Table, object_type: ObjectType) -> Templates:
    texts = {}
    dated = object_type is ObjectType.TIME
    for kind in [*TEMPLATE_FIELDS, *PAST_FIELDS]:
        if kind in PAST_FIELDS and kind not in table.values:
            continue
        texts[kind] = table.text(kind)
        problem = template_problem(kind, texts[kind], dated)
        if problem:
            raise table.error(kind, problem)
    return Templates(**texts)


def _object_class(table: _Table, object_type: ObjectType) -> str | None:
    if "object_class" not in table.values:
        return None
    value = table.text("object_class")
    if object_type is not ObjectType.ITEM:
        raise table.error("object_class", "only item objects have a class; remove the field")
    if not ITEM_ID.fullmatch(value):
        raise table.error("object_class", f"{value!r} is not an item id like Q5")
    return value


def _next_hops(table: _Table, object_type: ObjectType) -> tuple[str, ...]:
    hops = table.values.get("next_hops", [])
    if not isinstance(hops, list) or not all(isinstance(pid, str) for pid in hops):
        raise table.error("next_hops", f'expected a list like ["P6", "P17"], got {hops!r}')
    for pid in hops:
        if not PROPERTY_ID.fullmatch(pid):
            raise table.error("next_hops", f"{pid!r} is not a property id like P36")
    if len(set(hops)) < len(hops):
        raise table.error("next_hops", "a property is listed twice; list each once")
    if hops and object_type is not ObjectType.ITEM:
        raise table.error("next_hops", "a chain goes on from item objects only; remove them")
    return tuple(hops)


def _not_asked_of(table: _Table) -> tuple[str, ...]:
    classes = table.values.get("not_asked_of", [])
    if not isinstance(classes, list) or not all(isinstance(qid, str) for qid in classes):
        raise table.error("not_asked_of", f'expected a list like ["Q6256"], got {classes!r}')
    for qid in classes:
        if not ITEM_ID.fullmatch(qid):
            raise table.error("not_asked_of", f"{qid!r} is not an item id like Q6256")
    if len(set(classes)) < len(classes):
        raise table.error("not_asked_of", "a class is listed twice; list each once")
    return tuple(classes)


def _dated_objects(table: _Table, object_type: ObjectType) -> bool:
    if "dated_objects" not in table.values:
        return False
    dated = table.flag("dated_objects")
    if dated and object_type is not ObjectType.ITEM:
        raise table.error("dated_objects", "only item objects have an inception; remove it")
    return dated


def relation_from_table(source: TomlSource, pid: str, values: dict[str, Any]) -> Relation:
    """The relation ``pid`` from its table in ``source``, every field checked."""
    table = _Table(source, pid, values)
    _check_names(table)
    label = table.text("label")
    object_type = ObjectType(table.choice("object_type", [t.value for t in ObjectType]))
    multi_valued = table.flag("multi_valued")
    context = ContextPage(table.choice("context", [c.value for c in ContextPage]))
    if context is ContextPage.OBJECT and object_type is not ObjectType.ITEM:
        raise table.error("context", "only an item object has a page; use 'subject'")
    return Relation(
        pid=pid,
        label=label,
        object_type=object_type,
        multi_valued=multi_valued,
        context=context,
        templates=_templates(table, object_type),
        object_class=_object_class(table, object_type),
        next_hops=_next_hops(table, object_type),
        not_asked_of=_not_asked_of(table),
        places_only=table.flag("places_only") if "places_only" in table.values else False,
        fixed=table.flag("fixed") if "fixed" in table.values else False,
        dated_objects=_dated_objects(table, object_type),
        asked=table.flag("asked") if "asked" in table.values else True,
    )
