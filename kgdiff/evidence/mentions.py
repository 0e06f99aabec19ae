"""Find where a text mentions an entity by one of its names (distant supervision, EvoWiki).

A name matches case-folded (``str.casefold``: ``STRASSE`` finds ``Straße``), with every
character taken literally (a name like ``C++`` or ``A.C. Milan`` is escaped, never a
pattern) and on word boundaries (``Iran`` does not match inside ``Iranian``). Names shorter
than three characters and aliases that are demonyms (``American`` for the United States)
are *weak*: a mention made only through them is reported, but flagged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MIN_TRUSTED_LENGTH = 3


@dataclass(frozen=True, slots=True)
class Name:
    """One name of an entity: a label or an alias, with why it is not trusted alone."""

    entity: str
    text: str
    kind: str  # "label" or "alias"
    weak_reason: str | None = None  # "short", "demonym" or None


@dataclass(frozen=True, slots=True)
class Mention:
    """The first sentence that mentions an entity, and how often it is mentioned."""

    entity: str
    name: Name
    sentence_index: int
    sentence: str
    mentions: int
    """Sentences that mention the entity by any name (trusted or not)."""

    @property
    def weak(self) -> bool:
        """True when the entity is mentioned only through weak names."""
        return self.name.weak_reason is not None


def make_name(entity: str, text: str, kind: str, demonym: bool) -> Name | None:
    """A :class:`Name` with its weakness decided; ``None`` for a blank name."""
    text = " ".join(text.split())
    if not text:
        return None
    if demonym:
        return Name(entity, text, kind, "demonym")
    if len(text) < MIN_TRUSTED_LENGTH:
        return Name(entity, text, kind, "short")
    return Name(entity, text, kind)


def names_by_entity(rows: Iterable[tuple[str, str, str, bool]]) -> dict[str, list[Name]]:
    """(entity, text, kind, demonym) rows, as the SQL of ``sql/evidence/`` gives them, as
    each entity's names with their weakness decided (blank names dropped)."""
    found: dict[str, list[Name]] = {}
    for entity, text, kind, demonym in rows:
        name = make_name(entity, text, kind, bool(demonym))
        if name is not None:
            found.setdefault(entity, []).append(name)
    return found


class NameMatcher:
    """Every name of a set of entities, compiled into one case-folded, escaped pattern."""

    def __init__(self, names: Iterable[Name]) -> None:
        self.by_folded: dict[str, list[Name]] = {}
        for name in names:
            self.by_folded.setdefault(name.text.casefold(), []).append(name)
        alternatives = sorted(self.by_folded, key=len, reverse=True)  # longest name wins
        body = "|".join(re.escape(folded) for folded in alternatives)
        # A lookahead finds a match at every start position, so names overlapping others
        # (``New York`` inside ``New York City`` at another position) are all seen.
        self.pattern = re.compile(rf"(?=(?<!\w)({body})(?!\w))") if body else None

    def names_in(self, sentence: str) -> list[Name]:
        """The names occurring in ``sentence`` (each once, in order of appearance)."""
        if self.pattern is None:
            return []
        found: list[Name] = []
        for match in self.pattern.finditer(" ".join(sentence.split()).casefold()):
            for name in self.by_folded[match.group(1)]:
                if name not in found:
                    found.append(name)
        return found


def first_mentions(sentences: Sequence[str], matcher: NameMatcher) -> dict[str, Mention]:
    """Per entity, its first trusted mention (else its first weak one) among ``sentences``."""
    best: dict[str, Mention] = {}
    counts: dict[str, int] = {}
    for index, sentence in enumerate(sentences):
        seen: set[str] = set()
        for name in matcher.names_in(sentence):
            if name.entity not in seen:
                seen.add(name.entity)
                counts[name.entity] = counts.get(name.entity, 0) + 1
            current = best.get(name.entity)
            if current is None or (current.weak and name.weak_reason is None):
                best[name.entity] = Mention(name.entity, name, index, sentence, 0)
    return {
        entity: Mention(m.entity, m.name, m.sentence_index, m.sentence, counts[entity])
        for entity, m in best.items()
    }
