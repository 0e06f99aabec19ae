"""Identity of emitted entities: new ids, remapped item values, GUIDs, titles, page metadata.

Every emitted entity must be unique even when it is the n-th copy of the same template:
it gets a fresh id and page id, its statement GUIDs are re-prefixed with the new id, its
item values are mapped into the emitted item range, and its titles are made unique.
"""

from __future__ import annotations

import random
import time
import zlib

from bench.gendump.common import ID_PREFIX, Entity

NAMESPACE = {"item": 0, "property": 120, "lexeme": 146, "mediainfo": 6}
PAGE_PREFIX = {"property": "Property:", "lexeme": "Lexeme:", "mediainfo": "File:"}
FIRST_MODIFIED = 1_356_998_400  # 2013-01-01
LAST_MODIFIED = 1_703_980_800  # 2023-12-31


class IdSpace:
    """Allocates new entity ids and maps item values into the emitted item range."""

    def __init__(self, seed: int, item_refs: int) -> None:
        self.seed = seed & 0xFFFFFFFF
        self.item_refs = max(1, item_refs)
        self.next_number = {"item": 1, "lexeme": 1}
        self.next_page = 1000

    def new_page(self) -> int:
        """The next page id."""
        self.next_page += 1
        return self.next_page

    def new_id(self, entity_type: str, page: int) -> str:
        """A fresh id: sequential Q and L numbers; mediainfo ids follow the page id."""
        if entity_type == "mediainfo":
            return f"M{page}"
        number = self.next_number[entity_type]
        self.next_number[entity_type] = number + 1
        return f"{ID_PREFIX[entity_type]}{number}"

    def item_ref(self, qid: str) -> str:
        """The same real QID always maps to the same emitted item (hubs stay hubs)."""
        return f"Q{1 + zlib.crc32(qid.encode(), self.seed) % self.item_refs}"


def reprefix(statement_id: str | None, source_id: str, new_id: str) -> str | None:
    """``Q42$GUID`` → ``Q7$GUID``, ``L3354-S1$GUID`` → ``L9-S1$GUID``, keeping lower case."""
    if not statement_id or "$" not in statement_id:
        return statement_id
    prefix, _, guid = statement_id.partition("$")
    rest = prefix[len(source_id) :] if prefix.upper().startswith(source_id.upper()) else ""
    head = new_id.lower() if prefix[:1].islower() else new_id
    return f"{head}{rest}${guid}"


def copy_title(title: str | None, copy: int, page: int) -> str | None:
    """A file page title made unique for every copy after the first."""
    if not copy or title is None:
        return title
    stem, dot, ext = title.rpartition(".")
    return f"{stem} ({page}){dot}{ext}" if dot else f"{title} ({page})"


def unique_sitelinks(entity: Entity, new_id: str) -> None:
    """Suffix every sitelink title with the new id (for copies after the first)."""
    for sitelink in entity["sitelinks"].values():
        sitelink["title"] = f"{sitelink['title']} ({new_id})"


def add_page_meta(entity: Entity, page: int, file_title: str | None, rng: random.Random) -> None:
    """Append ``pageid``, ``ns``, ``title``, ``lastrevid`` and a random ``modified`` time."""
    kind = entity["type"]
    title = f"{PAGE_PREFIX.get(kind, '')}{entity['id']}"
    if kind == "mediainfo" and file_title:
        title = file_title
    when = rng.randint(FIRST_MODIFIED, LAST_MODIFIED)
    fraction = (when - FIRST_MODIFIED) / (LAST_MODIFIED - FIRST_MODIFIED)
    entity["pageid"] = page
    entity["ns"] = NAMESPACE.get(kind, 0)
    entity["title"] = title
    entity["lastrevid"] = int(100_000_000 + fraction * 1_950_000_000) + rng.randint(0, 999)
    entity["modified"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(when))
