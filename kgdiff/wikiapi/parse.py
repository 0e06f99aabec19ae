"""``action=query`` answers of the MediaWiki API, as plain values.

One parser serves live answers and recorded ones alike, in either JSON layout:
``formatversion=2`` (pages as a list, ``true`` flags, ``content``) and the older default
(pages keyed by id, flags as empty strings, ``*``); with or without ``rvslots``. Fields a
request did not ask for come back as ``None``; hidden (rev-deleted) ones as ``None`` with a
``*_hidden`` flag, never as empty strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class ApiRevision:
    """One revision as ``prop=revisions`` states it."""

    revid: int | None
    parentid: int | None
    timestamp: datetime | None
    user: str | None
    anon: bool
    comment: str | None
    sha1: str | None
    size: int | None
    minor: bool
    tags: tuple[str, ...]
    text: str | None
    user_hidden: bool = False
    comment_hidden: bool = False
    text_hidden: bool = False
    sha1_hidden: bool = False


@dataclass(frozen=True, slots=True)
class ApiPage:
    """A page of the answer; ``missing`` for a page that does not exist."""

    title: str
    ns: int | None
    page_id: int | None
    missing: bool
    invalid: bool
    revisions: tuple[ApiRevision, ...]


@dataclass(frozen=True, slots=True)
class QueryResult:
    """The pages of one answer, how titles were normalised and redirected, and where the
    next request continues (``None`` when the answer is complete)."""

    pages: tuple[ApiPage, ...]
    normalized: dict[str, str] = field(default_factory=dict)
    redirects: dict[str, str] = field(default_factory=dict)
    continuation: dict[str, str] | None = None
    bad_revids: tuple[int, ...] = ()

    def resolve(self, title: str) -> tuple[str, bool]:
        """The title a requested one ended up as, and whether a redirect was followed."""
        current = self.normalized.get(title, title)
        seen = {current}
        redirected = False
        while current in self.redirects:
            current = self.redirects[current]
            redirected = True
            if current in seen:  # a redirect loop: the API stops at some page of it
                break
            seen.add(current)
        return current, redirected

    def page(self, title: str) -> ApiPage | None:
        """The page a requested title resolved to, if the answer has it."""
        final, _ = self.resolve(title)
        return next((page for page in self.pages if page.title == final), None)


def parse_timestamp(value: str) -> datetime:
    """An API timestamp (``2014-12-17T21:09:18Z``) as an aware UTC datetime."""
    return datetime.fromisoformat(value).astimezone(UTC)


def parse_query(answer: Mapping[str, Any]) -> QueryResult:
    """The pages, title mappings and continuation of an ``action=query`` answer."""
    query = answer.get("query", {})
    raw_pages = query.get("pages", [])
    pages = raw_pages.values() if isinstance(raw_pages, Mapping) else raw_pages
    bad = query.get("badrevids", {})
    bad_items = bad.values() if isinstance(bad, Mapping) else bad
    cont = answer.get("continue")
    return QueryResult(
        pages=tuple(_page(page) for page in pages),
        normalized=_mapping(query.get("normalized", [])),
        redirects=_mapping(query.get("redirects", [])),
        continuation={k: str(v) for k, v in cont.items()} if isinstance(cont, Mapping) else None,
        bad_revids=tuple(int(item["revid"]) for item in bad_items if "revid" in item),
    )


def _flag(record: Mapping[str, Any], key: str) -> bool:
    """A boolean of either layout: ``"key": ""`` (old) or ``"key": true`` (version 2)."""
    return key in record and record[key] is not False


def _mapping(pairs: list[Mapping[str, Any]]) -> dict[str, str]:
    return {str(pair["from"]): str(pair["to"]) for pair in pairs}


def _number(record: Mapping[str, Any], key: str) -> int | None:
    value = record.get(key)
    return None if value is None else int(value)


def _page(page: Mapping[str, Any]) -> ApiPage:
    return ApiPage(
        title=str(page.get("title", "")),
        ns=_number(page, "ns"),
        page_id=_number(page, "pageid"),
        missing=_flag(page, "missing"),
        invalid=_flag(page, "invalid"),
        revisions=tuple(_revision(rev) for rev in page.get("revisions", [])),
    )


def _content(rev: Mapping[str, Any]) -> tuple[str | None, bool]:
    """The main slot's text and whether it is hidden (with or without ``rvslots``)."""
    slot = rev.get("slots", {}).get("main", rev)
    if _flag(slot, "texthidden") or _flag(rev, "texthidden"):
        return None, True
    text = slot.get("content", slot.get("*"))
    return (None if text is None else str(text)), False


def _revision(rev: Mapping[str, Any]) -> ApiRevision:
    text, text_hidden = _content(rev)
    stamp = rev.get("timestamp")
    return ApiRevision(
        revid=_number(rev, "revid"),
        parentid=_number(rev, "parentid"),
        timestamp=None if stamp is None else parse_timestamp(str(stamp)),
        user=None if rev.get("user") is None else str(rev["user"]),
        anon=_flag(rev, "anon"),
        comment=None if rev.get("comment") is None else str(rev["comment"]),
        sha1=None if rev.get("sha1") is None else str(rev["sha1"]),
        size=_number(rev, "size"),
        minor=_flag(rev, "minor"),
        tags=tuple(str(tag) for tag in rev.get("tags", [])),
        text=text,
        user_hidden=_flag(rev, "userhidden"),
        comment_hidden=_flag(rev, "commenthidden"),
        text_hidden=text_hidden,
        sha1_hidden=_flag(rev, "sha1hidden"),
    )
