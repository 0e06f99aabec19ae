"""Pages and revisions out of MediaWiki XML exports (Wikipedia and any other wiki).

Reads export schemas 0.3 to 0.11 under any namespace URI and any encoding the XML
declaration names (the bgwiki sample is UTF-16), pages-articles and full-history dumps
alike. It yields one :class:`Revision` at a time, each with its :class:`PageInfo`, and
drops what it has read, so a page with a million revisions costs no more memory than one
with a single revision. Deleted or suppressed contributors, comments and texts come back
as ``None`` with a ``*_deleted`` flag, never as empty strings.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml import etree

from kgdiff.readers.streams import ByteStream
from kgdiff.readers.xml_stream import (
    CountingReader,
    XmlDumpError,
    drop,
    local,
    number_of,
    required_number,
    syntax_error,
    text_of,
)

_TAGS = ("{*}siteinfo", "{*}page", "{*}revision")
_NAMES: dict[object, str] = {}
"""Local names of the tags met so far: a dump uses a few dozen, and one dict lookup per
element is what keeps small revisions (full histories) cheap."""
_MAX_NAMES = 1024


def _name(elem: etree._Element) -> str:
    """The local name of ``elem`` (as :func:`local`), remembered by tag."""
    name = _NAMES.get(elem.tag)
    if name is None:
        name = local(elem)
        if len(_NAMES) < _MAX_NAMES:
            _NAMES[elem.tag] = name
    return name


def _fields(elem: etree._Element) -> dict[str, etree._Element]:
    """Child elements by local name (the last one wins)."""
    return {_name(child): child for child in elem}


@dataclass(frozen=True, slots=True)
class PageInfo:
    """A page's header: id, namespace number, title and redirect target.

    ``redirect`` is ``None`` for an article, the target title for a redirect, and ``''``
    for a redirect whose target the export does not name (``<redirect />`` of schemas
    before 0.5: the target is in the ``#REDIRECT [[...]]`` text)."""

    page_id: int
    ns: int
    title: str
    redirect: str | None


@dataclass(frozen=True, slots=True)
class Revision:
    """One revision of a page, as the dump states it.

    ``user`` is the user name or, for an anonymous edit, the IP address (``user_id`` is
    then ``None``); ``text`` and ``size`` (its ``bytes`` attribute, schema ≥ 0.5) are the
    main slot's; ``sha1`` is the revision's own (all slots, what reverts are told by);
    ``extra_slots`` names the roles of further content slots (schema 0.11, e.g. Commons'
    ``mediainfo``), whose content is not read.
    """

    page: PageInfo
    revision_id: int
    parent_id: int | None
    timestamp: str
    user: str | None
    user_id: int | None
    minor: bool
    comment: str | None
    model: str | None
    format: str | None
    sha1: str | None
    size: int | None
    text: str | None
    extra_slots: tuple[str, ...] = ()
    user_deleted: bool = False
    comment_deleted: bool = False
    text_deleted: bool = False


@dataclass(slots=True)
class MediaWikiStats:
    """Counts of one read, updated as it goes."""

    pages: int = 0
    revisions: int = 0
    deleted_users: int = 0
    deleted_comments: int = 0
    deleted_texts: int = 0
    dbname: str | None = None
    """The wiki's database name from ``<siteinfo><dbname>`` (e.g. ``enwiki``; schema ≥ 0.10)."""
    base_url: str | None = None
    """``<siteinfo><base>``: the URL of the main page (tells the wiki for older schemas)."""


@dataclass(slots=True)
class _State:
    namespaces: dict[str, int] = field(default_factory=dict)
    page: PageInfo | None = None


def iter_revisions(stream: ByteStream, stats: MediaWikiStats | None = None) -> Iterator[Revision]:
    """Yield every revision of a decompressed MediaWiki XML stream, page after page.

    Raises :class:`XmlDumpError` for malformed XML (with line, column and byte)."""
    stats = MediaWikiStats() if stats is None else stats
    reader = CountingReader(stream)
    events = etree.iterparse(reader, events=("end",), tag=_TAGS, huge_tree=True)
    state = _State()
    try:
        for _event, elem in events:
            name = _name(elem)
            if name == "revision":
                yield _revision(state, elem, stats)
                drop(elem, keep_header=True)
            elif name == "page":
                stats.pages += 1
                state.page = None
                drop(elem, keep_header=False)
            else:
                state.namespaces = _namespaces(elem)
                _site_identity(elem, stats)
    except etree.XMLSyntaxError as exc:
        raise syntax_error(exc, reader.consumed) from exc


def _namespaces(siteinfo: etree._Element) -> dict[str, int]:
    """Namespace names (title prefixes) to numbers, from ``<siteinfo><namespaces>``."""
    found: dict[str, int] = {}
    block = _fields(siteinfo).get("namespaces")
    for item in [] if block is None else block:
        key = item.get("key", "")
        if text_of(item) and key.lstrip("-").isdigit():
            found[text_of(item)] = int(key)
    return found


def _site_identity(siteinfo: etree._Element, stats: MediaWikiStats) -> None:
    fields = _fields(siteinfo)
    stats.dbname = text_of(fields.get("dbname")) or None
    stats.base_url = text_of(fields.get("base")) or None


def _page_info(state: _State, page: etree._Element) -> PageInfo:
    fields = _fields(page)
    title = text_of(fields.get("title"))
    if "ns" in fields:
        ns = required_number(fields["ns"], "<ns>", page)
    else:  # schemas before 0.6: the title's prefix names the namespace
        prefix, colon, _ = title.partition(":")
        ns = state.namespaces.get(prefix, 0) if colon else 0
    redirect = fields.get("redirect")
    target = None if redirect is None else redirect.get("title", "")
    return PageInfo(required_number(fields.get("id"), "<page><id>", page), ns, title, target)


def _contributor(elem: etree._Element | None) -> tuple[str | None, int | None, bool]:
    if elem is None:
        return None, None, False
    if elem.get("deleted") is not None:
        return None, None, True
    fields = _fields(elem)
    if "ip" in fields:
        return text_of(fields["ip"]) or None, None, False
    return text_of(fields.get("username")) or None, number_of(fields.get("id")), False


def _extra_slots(rev: etree._Element) -> tuple[str, ...]:
    """The roles of the ``<content>`` slots a revision has besides its main text."""
    return tuple(text_of(_fields(c).get("role")) for c in rev if _name(c) == "content")


def _revision(state: _State, rev: etree._Element, stats: MediaWikiStats) -> Revision:
    if state.page is None:
        parent = rev.getparent()
        if parent is None:
            raise XmlDumpError(f"<revision> outside a <page> at line {rev.sourceline}")
        state.page = _page_info(state, parent)
    stats.revisions += 1
    fields = _fields(rev)
    timestamp = text_of(fields.get("timestamp"))
    if not timestamp:
        raise XmlDumpError(f"revision without <timestamp> at line {rev.sourceline}")
    user, user_id, user_deleted = _contributor(fields.get("contributor"))
    comment = fields.get("comment")
    comment_deleted = comment is not None and comment.get("deleted") is not None
    text = fields.get("text")
    text_deleted = text is not None and text.get("deleted") is not None
    stats.deleted_users += user_deleted
    stats.deleted_comments += comment_deleted
    stats.deleted_texts += text_deleted
    size = None if text is None else text.get("bytes")
    return Revision(
        page=state.page,
        revision_id=required_number(fields.get("id"), "<revision><id>", rev),
        parent_id=number_of(fields.get("parentid")),
        timestamp=timestamp,
        user=user,
        user_id=user_id,
        minor="minor" in fields,
        comment=None if comment is None or comment_deleted else comment.text or "",
        model=text_of(fields.get("model")) or None,
        format=text_of(fields.get("format")) or None,
        sha1=text_of(fields.get("sha1")) or None,
        size=int(size) if size is not None and size.isdigit() else None,
        text=None if text is None or text_deleted else text.text or "",
        extra_slots=_extra_slots(rev) if "content" in fields else (),
        user_deleted=user_deleted,
        comment_deleted=comment_deleted,
        text_deleted=text_deleted,
    )
