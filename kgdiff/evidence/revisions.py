"""The first revision that supports a fact (AntiLeakBench), whatever the revisions come from.

For a fact that started at ``t``: the first revision of the page saved after ``t`` whose
lead mentions both the subject and the object, skipping revisions that were reverted (an
identity revert restores an earlier text, told by its sha1, and undoes everything in
between; MediaWiki also tags undone edits ``mw-reverted``) and revisions whose text is
hidden. Leads are asked for in batches, so a history source with a cost per request (the
API) reads only the candidates it needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from kgdiff.evidence.mentions import NameMatcher
from kgdiff.text.sections import sentences

LEAD_BATCH = 50
REVERTED_TAG = "mw-reverted"
REVERT_RADIUS = 15
"""How far back a revert may reach (revisions), as usual in revert detection (mwreverts)."""
LeadSource = Callable[[list[int]], dict[int, str]]
"""Plain-text leads of a batch of revision ids (missing or hidden ones left out)."""


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """What the search needs of one revision, in page order."""

    revision_id: int
    timestamp: datetime
    sha1: str | None
    tags: tuple[str, ...] = ()
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class Support:
    """A supporting revision and the lead sentence that names the object."""

    revision_id: int
    timestamp: datetime
    sentence: str
    leads_read: int
    """Candidate leads read before this one was found (it included)."""


def reverted_ids(history: Sequence[HistoryEntry], radius: int = REVERT_RADIUS) -> set[int]:
    """Ids of the revisions undone by an identity revert or tagged as reverted.

    A revision whose sha1 equals that of one of the ``radius`` revisions before it (not its
    predecessor) restores that text: every revision strictly between the two is reverted.
    The radius keeps two far-apart edits that happen to leave the same text (two blankings
    years apart) from passing for a revert of everything in between."""
    last_index: dict[str, int] = {}
    reverted: set[int] = set()
    for index, entry in enumerate(history):
        if REVERTED_TAG in entry.tags:
            reverted.add(entry.revision_id)
        if entry.sha1 is None:
            continue
        earlier = last_index.get(entry.sha1)
        if earlier is not None and index - radius <= earlier < index - 1:
            reverted.update(h.revision_id for h in history[earlier + 1 : index])
        last_index[entry.sha1] = index
    return reverted


def supporting_sentence(lead: str, subject: NameMatcher, obj: NameMatcher) -> str | None:
    """The first lead sentence naming the object, if the lead also names the subject."""
    if not subject.names_in(lead):
        return None
    return next((s for s in sentences(lead) if obj.names_in(s)), None)


def candidates(history: Sequence[HistoryEntry], after: datetime) -> list[HistoryEntry]:
    """The revisions after ``after`` that may support a fact: not reverted, text visible."""
    reverted = reverted_ids(history)
    return [
        h for h in history if h.timestamp > after and not h.hidden and h.revision_id not in reverted
    ]


def scan(
    found: Sequence[HistoryEntry], leads: LeadSource, subject: NameMatcher, obj: NameMatcher
) -> Support | None:
    """The first of ``found`` whose lead names both, reading every lead in order (exact)."""
    read = 0
    for batch in _batches(found, LEAD_BATCH):
        texts = leads([h.revision_id for h in batch])
        for entry in batch:
            read += 1
            sentence = supporting_sentence(texts.get(entry.revision_id, ""), subject, obj)
            if sentence is not None:
                return Support(entry.revision_id, entry.timestamp, sentence, read)
    return None


def probe(
    found: Sequence[HistoryEntry], leads: LeadSource, subject: NameMatcher, obj: NameMatcher
) -> Support | None:
    """Like :func:`scan` in at most two batches of leads, for a costly source: the leads of
    ``LEAD_BATCH`` evenly spread candidates first, then those of the gap before the first hit
    (or after the last probe). A mention that appears and is removed again, unreverted,
    between two probes can be missed: this finds the first revision of a *lasting* mention."""
    if len(found) <= LEAD_BATCH:
        return scan(found, leads, subject, obj)
    step = -(-len(found) // LEAD_BATCH)
    probes = list(found[::step])
    texts = leads([h.revision_id for h in probes])
    hit = next(
        (
            i
            for i, h in enumerate(probes)
            if supporting_sentence(texts.get(h.revision_id, ""), subject, obj)
        ),
        None,
    )
    if hit is None:
        return scan(found[(len(probes) - 1) * step + 1 :], leads, subject, obj)
    gap = list(found[(hit - 1) * step + 1 : hit * step + 1]) if hit else [probes[0]]
    return scan(gap, leads, subject, obj)


def first_support(
    history: Sequence[HistoryEntry],
    after: datetime,
    leads: LeadSource,
    subject: NameMatcher,
    obj: NameMatcher,
) -> Support | None:
    """The first unreverted revision after ``after`` whose lead names subject and object.

    ``history`` is the page's revisions in order (earlier ones too, if known: they tell
    reverts); ``leads`` returns the plain-text leads of a batch of revision ids."""
    return scan(candidates(history, after), leads, subject, obj)


def _batches(items: Sequence[HistoryEntry], size: int) -> Iterable[Sequence[HistoryEntry]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]
