"""N-Triples terms: IRIs, literals and the Wikibase namespaces (W3C RDF 1.1 N-Triples), the
namespaces' IRIs as :mod:`kgdiff.wikibase_rdf` gives them to the RDF reader too.

Terms are built as strings, not rdflib nodes: a whole snapshot has hundreds of millions of
triples, and formatting them directly is several times faster than going through a graph.
"""

from __future__ import annotations

import re
from typing import Final

from kgdiff import wikibase_rdf as vocab

WD: Final = vocab.WD
WDS: Final = vocab.WDS
WDV: Final = vocab.WDV
PROP: Final = vocab.PROP
GENID: Final = vocab.GENID
WIKIBASE: Final = vocab.WIKIBASE
SKOS: Final = vocab.SKOS
SCHEMA: Final = vocab.SCHEMA
XSD: Final = vocab.XSD
GEO_WKT: Final = vocab.GEO_WKT
RDF_TYPE: Final = f"<{vocab.RDF_TYPE}>"
RDFS_LABEL: Final = f"<{vocab.RDFS_LABEL}>"
OWL_SAME_AS: Final = f"<{vocab.OWL_SAME_AS}>"
WRITTEN_KINDS: Final = ("wdt", "p", "ps", "psv", "pq", "pqv", "wdno")
"""The kinds of property predicate written (:data:`kgdiff.wikibase_rdf.PROPERTY_PATHS`)."""
KGDIFF: Final = "https://kgdiff.org/ns#"
"""kgdiff's own vocabulary (the classification's classes and properties, docs/rdf.md)."""
KGDIFF_GRAPH: Final = "https://kgdiff.org/graph/"
"""Where the named graphs of N-Quads and TriG output are named (snapshots, classifications)."""

PREFIXES: Final = {
    "wd": WD,
    "s": WDS,
    "v": WDV,
    **{kind: PROP + vocab.PROPERTY_PATHS[kind] for kind in WRITTEN_KINDS},
    "wikibase": WIKIBASE,
    "skos": SKOS,
    "schema": SCHEMA,
    "geo": vocab.GEO,
    "xsd": XSD,
}
"""The prefixes Wikidata's dumps use for what this export writes (Turtle output binds them)."""

# Characters RDF 1.1 forbids in an IRI reference: they are percent-encoded (an URL value
# with a space is written as Wikidata's own RDF would need it, not rejected).
_IRI_FORBIDDEN = re.compile(r'[\x00-\x20<>"{}|^`\\]')
_LITERAL_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"})
_LANGUAGE_TAG = re.compile(r"[a-zA-Z]+(?:-[a-zA-Z0-9]+)*")


def _percent(match: re.Match[str]) -> str:
    return "".join(f"%{byte:02X}" for byte in match.group(0).encode("utf-8"))


def iri(text: str) -> str:
    """``<text>`` with the characters an IRI may not hold percent-encoded."""
    return "<" + _IRI_FORBIDDEN.sub(_percent, text) + ">"


def wb(name: str) -> str:
    """A term of the Wikibase ontology, e.g. ``wb("rank")``."""
    return f"<{WIKIBASE}{name}>"


def prop(kind: str, pid: str) -> str:
    """A property predicate of ``kind`` ("wdt", "p", "ps", "psv", "pq", "pqv", "wdno")."""
    return f"<{PREFIXES[kind]}{pid}>"


def entity(qid: str) -> str:
    """``wd:Q42`` as an IRI."""
    return iri(WD + qid)


def plain(text: str) -> str:
    """A plain string literal."""
    return '"' + text.translate(_LITERAL_ESCAPES) + '"'


def typed(text: str, datatype: str) -> str:
    """A literal of the datatype IRI ``datatype`` (a full IRI, without brackets)."""
    return f"{plain(text)}^^<{datatype}>"


def language_tag(code: str) -> str | None:
    """A Wikimedia language code as a BCP 47 tag (``zh-hans`` → ``zh-Hans``, ``en-gb`` →
    ``en-GB``, as MediaWiki's ``LanguageCode::bcp47`` does for most codes), or None if it
    cannot be one (the literal is then written without a tag)."""
    parts = code.replace("_", "-").split("-")
    tag = "-".join(
        [parts[0].lower()]
        + [p.title() if len(p) == 4 else p.upper() if len(p) == 2 else p for p in parts[1:]]
    )
    return tag if _LANGUAGE_TAG.fullmatch(tag) else None


def tagged(text: str, code: str) -> str:
    """A language-tagged literal (plain if ``code`` cannot be a tag)."""
    tag = language_tag(code)
    return plain(text) + (f"@{tag}" if tag else "")


def line(subject: str, predicate: str, obj: str) -> str:
    """One N-Triples line."""
    return f"{subject} {predicate} {obj} .\n"
