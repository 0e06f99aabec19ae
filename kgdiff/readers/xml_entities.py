"""Refuse an XML document whose text depends on files or URLs it names (external entities).

rdflib's RDF/XML parser never loads an external entity: it drops the reference, so a literal
that says ``&x;`` would silently become ``''``. The MediaWiki XML readers refuse such a
document (lxml reports the entity as undefined); this check gives RDF/XML the same rule, with
a message that names the entity. It runs expat over the document with handlers that only
look: expat itself reads no file or URL unless a handler asks it to, and none does.
Internal entities (``<!ENTITY xsd "http://www.w3.org/2001/XMLSchema#">``, common in OWL
files) are plain text in the document and stay allowed.
"""

from __future__ import annotations

from pathlib import Path
from xml.parsers import expat

from kgdiff.errors import InputError


class _FoundError(Exception):
    """Stops the scan: what was found, and where."""

    def __init__(self, what: str, line: int) -> None:
        super().__init__(what)
        self.what, self.line = what, line


class _StopScanError(Exception):
    """Stops the scan early: nothing below the document's first element can matter."""


def _scanner() -> expat.XMLParserType:
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    external_subset = False

    def on_doctype(name: str, system_id: str | None, public_id: str | None, _: int) -> None:
        nonlocal external_subset
        external_subset = system_id is not None

    def on_entity(
        name: str, is_parameter: int, value: str | None, base: str | None,
        system_id: str | None, public_id: str | None, notation: str | None,
    ) -> None:  # fmt: skip
        if system_id is not None:
            kind = "parameter entity %" if is_parameter else "entity &"
            raise _FoundError(f"declares the external {kind}{name}; (SYSTEM {system_id!r})", line())

    def on_skipped(name: str, is_parameter: int) -> None:
        raise _FoundError(f"uses the entity &{name}; that its DTD does not declare", line())

    def on_element(name: str, attributes: object) -> None:
        if not external_subset:  # undeclared entities below are expat's errors, not skips
            raise _StopScanError

    def line() -> int:
        return int(parser.CurrentLineNumber)

    parser.StartDoctypeDeclHandler = on_doctype
    parser.EntityDeclHandler = on_entity
    parser.SkippedEntityHandler = on_skipped
    parser.StartElementHandler = on_element
    return parser


def refuse_external_entities(data: bytes, path: Path, what: str) -> None:
    """Raise :class:`InputError` (naming ``path``, the line and the entity) when the XML
    ``data`` declares or uses an external entity; ``what`` names the syntax in the message.
    Malformed XML passes: its own parser reports it."""
    try:
        _scanner().Parse(data, True)
    except _FoundError as found:
        raise InputError(
            f"{path}: line {found.line}: the {what} {found.what}; kgdiff reads no file or URL "
            "that an input names: write the entity's text in its place"
        ) from None
    except (_StopScanError, expat.ExpatError):
        return
