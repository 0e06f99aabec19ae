"""What the RDF reader holds while an entity is incomplete: its triples gathered by subject
(:class:`PendingEntity`), the bounded cache of value and reference nodes shared between
entities (:class:`NodeCache`), and the counts of what the conversion met (:class:`RdfStats`)."""

from __future__ import annotations

from collections import Counter, OrderedDict
from dataclasses import dataclass, field

from rdflib import RDF
from rdflib.term import Node

from kgdiff.readers.rdf_vocabulary import ARTICLE, IS_PART_OF, Pairs

NODE_CACHE = 200_000
"""Value and reference nodes kept for later entities (~0.5 KB each: about 100 MB)."""


@dataclass
class RdfStats:
    """What the conversion met, beyond the entities themselves."""

    counts: Counter[str] = field(default_factory=Counter)
    is_dump: bool = False
    """The file declares itself a whole dump (a ``wikibase:Dump`` node)."""


@dataclass
class PendingEntity:
    """The triples of one entity gathered so far, by subject, in file order."""

    subjects: dict[Node, Pairs] = field(default_factory=dict)
    abouts: list[Node] = field(default_factory=list)
    """Subjects ``schema:about`` the entity: its sitelinks' pages and its dataset node."""

    def add(self, subject: Node, pairs: Pairs) -> None:
        self.subjects.setdefault(subject, []).extend(pairs)

    def _is_article(self, node: Node) -> bool:
        return any(
            (p == RDF.type and o == ARTICLE) or p == IS_PART_OF for p, o in self.subjects[node]
        )

    @property
    def articles(self) -> list[Node]:
        """The pages of the entity's sitelinks."""
        return [node for node in self.abouts if self._is_article(node)]

    @property
    def datasets(self) -> list[Node]:
        """The entity's ``data:`` node (Wikibase's, not WDQS's munged form)."""
        return [node for node in self.abouts if not self._is_article(node)]


def local_name(term: Node, separator: str = "#") -> str:
    return str(term).rpartition(separator)[2]


class NodeCache:
    """Value and reference nodes by IRI, the least recently used dropped past ``bound``."""

    def __init__(self, bound: int = NODE_CACHE) -> None:
        self.bound = bound
        self._nodes: OrderedDict[str, Pairs] = OrderedDict()
        self.dropped = 0

    def put(self, key: str, pairs: Pairs) -> None:
        """Add a node's triples (a node may be written in several places: they add up)."""
        known = self._nodes.get(key)
        if known is not None:
            pairs = known + [pair for pair in pairs if pair not in known]
        self._nodes[key] = pairs
        self._nodes.move_to_end(key)
        if len(self._nodes) > self.bound:
            self._nodes.popitem(last=False)
            self.dropped += 1

    def get(self, key: str) -> Pairs | None:
        found = self._nodes.get(key)
        if found is not None:
            self._nodes.move_to_end(key)
        return found
