"""The relation catalogue: per Wikidata property, its label, its objects' type and class, the
templates of its questions, whose page gives context, and the properties a chain may take
after it (docs/relations.md).

kgdiff ships one (``kgdiff/data/relation_catalogue.toml``, :func:`shipped_catalogue`); a
user's file (``--relations FILE``, :func:`load_catalogue`) adds relations to it and replaces
those with the same property id, or, with ``replace = true`` at its top, is the whole
catalogue. Every check runs when a file is read, so a template of a catalogue always renders;
a malformed file is one usage error naming the file, the line and the field.
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kgdiff.errors import UsageError
from kgdiff.export.relations.fields import FIELDS, PROPERTY_ID, relation_from_table
from kgdiff.export.relations.model import (
    ContextPage,
    ObjectType,
    Relation,
    RelationCatalogue,
    Templates,
)
from kgdiff.export.relations.toml_source import TomlSource
from kgdiff.resources import data_text

__all__ = [
    "SHIPPED_FILE",
    "ContextPage",
    "ObjectType",
    "Relation",
    "RelationCatalogue",
    "Templates",
    "dump_catalogue",
    "load_catalogue",
    "parse_catalogue",
    "shipped_catalogue",
]

SHIPPED_FILE = "relation_catalogue.toml"
"""The shipped catalogue's name in ``kgdiff/data/``."""
REPLACE = "replace"
"""The one top-level setting: ``replace = true`` makes a user's file the whole catalogue."""


def _setting(source: TomlSource, data: dict[str, Any]) -> bool:
    value = data.pop(REPLACE, False)
    if not isinstance(value, bool):
        line = source.lines.key("", REPLACE)
        raise source.error(line, f"replace: expected true or false (no quotes), got {value!r}")
    return value


def _relations(source: TomlSource, data: dict[str, Any]) -> dict[str, Relation]:
    relations = {}
    for pid, values in data.items():
        line = source.lines.table(pid)
        if not PROPERTY_ID.fullmatch(pid):
            raise source.error(
                line,
                f"{pid!r} is not a property id like P36; each relation is a table [P36] "
                f"(the only other setting is {REPLACE} = true)",
            )
        if not isinstance(values, dict):
            raise source.error(line, f"[{pid}] must be a table: a line [{pid}], then its fields")
        relations[pid] = relation_from_table(source, pid, values)
    if not relations:
        raise source.error(1, "the file holds no relation; add a table such as [P36]")
    return relations


def _check_hops(source: TomlSource, relations: dict[str, Relation], known: Collection[str]) -> None:
    for relation in relations.values():
        for pid in relation.next_hops:
            if pid not in known:
                line = source.lines.key(relation.pid, "next_hops")
                raise source.error(
                    line,
                    f"[{relation.pid}] next_hops: {pid} has no relation in the catalogue; "
                    f"add a [{pid}] table or remove {pid} from the list",
                )


def parse_catalogue(
    text: str, name: str, base: RelationCatalogue | None = None
) -> RelationCatalogue:
    """The catalogue in ``text`` (called ``name`` in messages), every field checked.

    With a ``base`` its relations come first, those of ``text`` replacing the ones with the
    same property id and adding the others, unless ``text`` says ``replace = true``. Every
    next hop must be a relation of the result.
    """
    source = TomlSource.of(name, text)
    data = source.parse()
    replace = _setting(source, data)
    own = _relations(source, data)
    merged = own if base is None or replace else {**base.relations, **own}
    _check_hops(source, own, merged)
    if merged is not own and base is not None:
        name = f"{name} over {base.source}"
    return RelationCatalogue(MappingProxyType(merged), name)


@cache
def shipped_catalogue() -> RelationCatalogue:
    """The catalogue shipped with kgdiff (read and checked once per process)."""
    return parse_catalogue(data_text(SHIPPED_FILE), f"kgdiff/data/{SHIPPED_FILE}")


def load_catalogue(path: Path | None = None) -> RelationCatalogue:
    """The shipped catalogue, or with ``path`` (``--relations FILE``) the user's file over
    it; a usage error naming the file (and line) when it cannot be read or is malformed."""
    if path is None:
        return shipped_catalogue()
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(
            f"relations file {path}: cannot read it ({exc}); give a UTF-8 TOML file"
        ) from exc
    return parse_catalogue(text, f"relations file {path}", shipped_catalogue())


def _toml_string(text: str) -> str:
    """``text`` as a TOML basic string (control characters escaped as TOML requires)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(f"\\u{ord(c):04x}" if ord(c) < 0x20 or ord(c) == 0x7F else c for c in escaped)
    return f'"{escaped}"'


def _relation_lines(relation: Relation) -> list[str]:
    values: dict[str, Any] = {
        "label": relation.label,
        "object_type": relation.object_type.value,
        "multi_valued": relation.multi_valued,
        "context": relation.context.value,
        **vars(relation.templates),
        "object_class": relation.object_class,
        "next_hops": list(relation.next_hops),
        "not_asked_of": list(relation.not_asked_of),
        "places_only": relation.places_only or None,
        "fixed": relation.fixed or None,
        "dated_objects": relation.dated_objects or None,
        "asked": None if relation.asked else False,
    }
    lines = [f"[{relation.pid}]"]
    for name in FIELDS:
        value = values[name]
        if isinstance(value, bool):
            lines.append(f"{name} = {'true' if value else 'false'}")
        elif isinstance(value, str):
            lines.append(f"{name} = {_toml_string(value)}")
        elif value is None:  # an optional field the relation does not have
            continue
        elif value:  # next hops and classes not asked of, when there are any
            lines.append(f"{name} = [{', '.join(_toml_string(item) for item in value)}]")
    return lines


def dump_catalogue(catalogue: RelationCatalogue, *, replace: bool = False) -> str:
    """``catalogue`` as the text of a catalogue file (``replace = true`` first when asked:
    as ``--relations`` it is then the whole catalogue, not an addition to the shipped one)."""
    blocks = [f"{REPLACE} = true"] if replace else []
    blocks += ["\n".join(_relation_lines(relation)) for relation in catalogue.every()]
    return "\n\n".join(blocks) + "\n"
