"""A page's revisions through the API: the one in force at a date, those after it, leads.

These are the primitives behind "supporting revisions": one metadata page of up to 500
revisions after a date (:func:`revisions_after`) and the leads of up to 50 of them per
request (:func:`lead_texts`, cached on disk), so the first revision whose lead mentions a
fact is usually found in three requests.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from kgdiff.wikiapi.client import WikiClient
from kgdiff.wikiapi.errors import WikiApiError
from kgdiff.wikiapi.parse import ApiPage, ApiRevision, QueryResult, parse_query, parse_timestamp

LEAD_BATCH = 50
"""Revisions whose content one request may ask for (the API's limit without bot rights)."""
_META_PROPS = "ids|timestamp|sha1|size|tags|flags"
_SETTLED = timedelta(days=1)
"""How far in the past a date must lie for the revision in force then to be cached."""


@dataclass(frozen=True, slots=True)
class RevisionMeta:
    """A revision without its text. ``parentid`` is ``None`` for a page's first revision;
    ``sha1`` (hex, of all slots) is ``None`` when hidden; ``content_hidden`` tells a
    rev-deleted text."""

    revid: int
    parentid: int | None
    timestamp: datetime
    sha1: str | None
    size: int | None
    minor: bool
    tags: tuple[str, ...]
    content_hidden: bool = False


@dataclass(frozen=True, slots=True)
class RevisionInfo:
    """A revision with its page and main-slot text (``None`` when hidden);
    ``redirected_from`` is the requested title when a redirect led to ``title``."""

    meta: RevisionMeta
    title: str
    page_id: int
    text: str | None
    redirected_from: str | None


def _utc(when: datetime) -> datetime:
    """An aware UTC datetime (a naive one is taken as UTC already)."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def api_time(when: datetime) -> str:
    """A datetime as the API writes timestamps (a naive one is taken as UTC)."""
    return _utc(when).strftime("%Y-%m-%dT%H:%M:%SZ")


def revision_meta(rev: ApiRevision, where: str) -> RevisionMeta:
    """The metadata of a parsed revision (which must have its id and timestamp)."""
    if rev.revid is None or rev.timestamp is None:
        raise WikiApiError(f"{where}: a revision in the answer lacks its id or timestamp")
    return RevisionMeta(
        revid=rev.revid, parentid=rev.parentid or None, timestamp=rev.timestamp, sha1=rev.sha1,
        size=rev.size, minor=rev.minor, tags=rev.tags,
        content_hidden=rev.text_hidden or rev.sha1_hidden,  # the API hides both together
    )  # fmt: skip


def revision_at(client: WikiClient, title: str, when: datetime) -> RevisionInfo | None:
    """The revision in force at ``when`` (the last one saved at or before it), in one
    request; redirects are followed (as they stand today). ``None`` for a missing page or
    a page that did not exist yet. With a cache, an answer for a date more than a day in
    the past is kept, and asked again it costs no request."""
    key = f"at:{api_time(when)}"
    cached = _cached_at(client, title, key)
    if cached is not None:
        return cached
    params: dict[str, str | int] = {
        "prop": "revisions", "titles": title, "redirects": 1, "rvlimit": 1,
        "rvstart": api_time(when), "rvdir": "older", "rvslots": "main",
        "rvprop": f"{_META_PROPS}|content",
    }  # fmt: skip
    result = _parsed(client, client.query(params, title), title)
    page = _page_of(client, result, title)
    if page is None or not page[0].revisions:
        return None
    found, redirected = page
    rev = found.revisions[0]
    meta = revision_meta(rev, f"{client.site_id} ({title!r})")
    origin = result.normalized.get(title, title) if redirected else None
    info = RevisionInfo(meta, found.title, found.page_id or 0, rev.text, origin)
    if _utc(when) < datetime.now(UTC) - _SETTLED:
        _store_at(client, title, key, info)
    return info


def _store_at(client: WikiClient, title: str, key: str, info: RevisionInfo) -> None:
    """Cache the answer: the text under its revision, the rest under (title, date)."""
    if client.cache is None:
        return
    if info.text is not None:
        client.cache.put(client.site_id, info.title, info.meta.revid, "text", info.text)
    record = {**asdict(info.meta), "timestamp": api_time(info.meta.timestamp)}
    record |= {"title": info.title, "page_id": info.page_id, "from": info.redirected_from}
    # revision id 0 (no revision has it): this entry belongs to the title and the date
    client.cache.put(client.site_id, title, 0, key, json.dumps(record))


def _cached_at(client: WikiClient, title: str, key: str) -> RevisionInfo | None:
    if client.cache is None or (raw := client.cache.get(client.site_id, title, 0, key)) is None:
        return None
    try:
        record = json.loads(raw)
        meta = RevisionMeta(
            revid=int(record["revid"]), parentid=record["parentid"],
            timestamp=parse_timestamp(record["timestamp"]), sha1=record["sha1"],
            size=record["size"], minor=bool(record["minor"]), tags=tuple(record["tags"]),
            content_hidden=bool(record["content_hidden"]),
        )  # fmt: skip
        text = client.cache.get(client.site_id, record["title"], meta.revid, "text")
        if text is None and not meta.content_hidden:
            return None
        return RevisionInfo(
            meta, str(record["title"]), int(record["page_id"]), text, record["from"]
        )
    except (KeyError, TypeError, ValueError):
        return None


def revisions_after(
    client: WikiClient, title: str, t: datetime, *, batch: int = 500, inclusive: bool = False
) -> Iterator[RevisionMeta]:
    """The revisions saved strictly after ``t`` (at or after it if ``inclusive``), oldest
    first, without text; one request per ``batch`` revisions, made only as the iteration
    gets there. Redirects are followed; a missing page yields nothing."""
    if not 1 <= batch <= 500:
        raise ValueError(f"batch must be 1..500, not {batch}")
    moment = _utc(t)
    params: dict[str, str | int] = {
        "prop": "revisions", "titles": title, "redirects": 1, "rvlimit": batch,
        "rvstart": api_time(t), "rvdir": "newer", "rvprop": _META_PROPS,
    }  # fmt: skip
    where = f"{client.site_id} ({title!r})"
    for answer in client.query_pages(params, title):
        page = _page_of(client, _parsed(client, answer, title), title)
        if page is None:
            return
        for rev in page[0].revisions:
            meta = revision_meta(rev, where)
            if meta.timestamp > moment or inclusive:
                yield meta


def lead_texts(client: WikiClient, title: str, revids: Iterable[int]) -> dict[int, str]:
    """The lead (section 0) wikitext of each revision, ``LEAD_BATCH`` revisions per request,
    cached texts without any. Revisions that do not exist or whose text is hidden are
    left out of the result."""
    found: dict[int, str] = {}
    wanted: list[int] = []
    for revid in dict.fromkeys(revids):
        cached = None if client.cache is None else client.cache.get(
            client.site_id, title, revid, "lead"
        )  # fmt: skip
        if cached is None:
            wanted.append(revid)
        else:
            found[revid] = cached
    for start in range(0, len(wanted), LEAD_BATCH):
        found.update(_fetch_leads(client, title, wanted[start : start + LEAD_BATCH]))
    return found


def _fetch_leads(client: WikiClient, title: str, revids: list[int]) -> dict[int, str]:
    params: dict[str, str | int] = {
        "prop": "revisions", "revids": "|".join(map(str, revids)), "rvprop": "ids|content",
        "rvslots": "main", "rvsection": 0,
    }  # fmt: skip
    found: dict[int, str] = {}
    for answer in client.query_pages(params, title):
        for page in _parsed(client, answer, title).pages:
            for rev in page.revisions:
                if rev.revid is None or rev.text is None:
                    continue
                found[rev.revid] = rev.text
                if client.cache is not None:
                    client.cache.put(client.site_id, title, rev.revid, "lead", rev.text)
    return found


def _parsed(client: WikiClient, answer: Mapping[str, Any], title: str) -> QueryResult:
    try:
        return parse_query(answer)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        problem = f"{type(exc).__name__}: {exc}"
        raise WikiApiError(f"{client.site_id} ({title!r}): unexpected answer ({problem})") from None


def _page_of(client: WikiClient, result: QueryResult, title: str) -> tuple[ApiPage, bool] | None:
    """The page a title resolved to and whether via a redirect; ``None`` if missing."""
    _, redirected = result.resolve(title)
    page = result.page(title)
    if page is not None and page.invalid:
        raise WikiApiError(f"{client.site_id}: {title!r} is not a valid page title")
    if page is None or page.missing or page.page_id is None:
        return None
    return page, redirected
