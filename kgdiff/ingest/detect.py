"""Tell what a Wikidata input file holds from its first decompressed bytes."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import msgspec

from kgdiff.errors import InputError, UsageError
from kgdiff.ingest.sources import open_source

SNIFF_BYTES = 64 * 1024
DUMP_DATE = re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})(?!\d)")

JSON_DUMP = "json-dump"
XML_DUMP = "xml-dump"
ENTITY_DOC = "entity-document"


def classify_head(head: bytes) -> str | None:
    """``json-dump``, ``xml-dump`` or ``entity-document`` for a file starting with ``head``."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if text.startswith(b"<"):
        return XML_DUMP
    if text.startswith(b"["):
        return JSON_DUMP
    if not text.startswith(b"{"):
        return None
    first_line = text.split(b"\n", 1)[0].strip().rstrip(b",")
    try:
        doc = msgspec.json.decode(first_line)
    except msgspec.DecodeError:
        return ENTITY_DOC  # a pretty-printed document spans several lines
    if isinstance(doc, dict) and "entities" not in doc and b"\n" in text.strip():
        return JSON_DUMP  # JSON lines: one entity per line
    return ENTITY_DOC


def detect_format(path: Path) -> tuple[str, str]:
    """Return ``(format, compression)`` of a Wikidata input file."""
    with open_source(path, threads=1, whole_hash=False) as source:
        head = source.read(SNIFF_BYTES)
        compression = source.method
    kind = classify_head(head)
    if kind is None:
        raise InputError(
            f"{path}: offset 0: not a Wikidata dump or entity file (starts with {head[:16]!r}); "
            "expected JSON ('[' or '{') or MediaWiki XML ('<')"
        )
    return kind, compression


def infer_dump_date(path: Path) -> date | None:
    """The date in a dump file name such as ``wikidata-20240101-all.json.gz``."""
    for match in DUMP_DATE.finditer(path.name):
        try:
            return date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            continue
    return None


def resolve_date(path: Path, given: str | None) -> tuple[date, date | None]:
    """The snapshot date (given, else inferred) and the date in the file name."""
    inferred = infer_dump_date(path)
    if given:
        try:
            return date.fromisoformat(given), inferred
        except ValueError as exc:
            raise UsageError(f"--date {given!r} is not a date; write it as YYYY-MM-DD") from exc
    if inferred is None:
        raise UsageError(
            f"{path.name}: no date in the file name (like wikidata-20240101-all.json.gz); "
            "pass --date YYYY-MM-DD"
        )
    return inferred, inferred
