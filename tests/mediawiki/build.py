"""Build the test wiki: install, import real page histories and a long synthetic one, serve.

``importDump.php`` cannot import rev-deleted fields: a suppressed user becomes
``imported>Unknown user``, a suppressed comment or text an empty one. The setup hides those
fields again through the API (``action=revisiondelete``, as the wiki's admin), so the wiki
shows the suppressions the real export had. Imported revisions get new ids (1, 2, …
in import order) and unknown users the ``imported>`` prefix.
"""

from __future__ import annotations

import bz2
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import mwclient
from lxml import etree

from tests.mediawiki.entities import entity_history_xml
from tests.mediawiki.history import SyntheticHistory, build_history, write_export
from tests.mediawiki.server import (
    ADMIN_PASSWORD,
    ADMIN_USER,
    MediaWiki,
    free_port,
    import_dump,
    install,
    serve,
)
from tests.paths import DATA

SOURCES = DATA / "wikipedia"  # the real exports the reader tests use too
HISTORIES = (
    "article-pear.xml",
    "article-pear-0.10.xml",
    "article-pyrus.xml",
    "pair-0.10.xml",
    "simplewiki_2pages_33revs_export-0.11.xml",
)
ENWIKI = "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"
_FIELDS = {"contributor": "user", "comment": "comment", "text": "content"}


@dataclass
class LoadedWiki(MediaWiki):
    """The running wiki with what was imported into it."""

    history: SyntheticHistory | None = None
    hidden: tuple[tuple[str, str, str], ...] = ()
    """(title, timestamp, hidden fields) of every revision whose fields were hidden again."""


def titles_of(dump: Path) -> list[str]:
    """The page titles of an XML export, in file order."""
    with dump.open("rb") as handle:
        return [elem.text or "" for _e, elem in etree.iterparse(handle, tag="{*}title")]


def suppressed_fields(dump: Path) -> list[tuple[str, str, str]]:
    """(title, timestamp, ``user|comment|content`` subset) of each revision that has
    ``deleted="deleted"`` fields in the export."""
    found = []
    with dump.open("rb") as handle:
        for _event, page in etree.iterparse(handle, tag="{*}page"):
            title = page.findtext("{*}title") or ""
            for rev in page.iterfind("{*}revision"):
                hidden = [
                    name
                    for tag, name in _FIELDS.items()
                    if rev.find(f"{{*}}{tag}[@deleted]") is not None
                ]
                if hidden:
                    found.append((title, rev.findtext("{*}timestamp") or "", "|".join(hidden)))
            page.clear()
    return found


def build_wiki(root: Path) -> LoadedWiki:
    """Install, import and start the test wiki under ``root`` (the caller stops it)."""
    started = time.monotonic()
    wiki = LoadedWiki(root=root, port=free_port())
    install(wiki)
    titles: list[str] = []
    for name in HISTORIES:
        import_dump(wiki, SOURCES / name)
        titles += titles_of(SOURCES / name)
    enwiki = root / "enwiki.xml"
    with bz2.open(SOURCES / ENWIKI, "rb") as packed, enwiki.open("wb") as plain:
        shutil.copyfileobj(packed, plain)
    import_dump(wiki, enwiki, updates=False)
    titles += titles_of(enwiki)
    wiki.history = build_history(SOURCES / ENWIKI)
    write_export(wiki.history, root / "synthetic-history.xml")
    import_dump(wiki, root / "synthetic-history.xml", updates=False)
    titles.append(wiki.history.title)
    (root / "entity-history.xml").write_text(entity_history_xml("wikitext"), "utf-8")
    import_dump(wiki, root / "entity-history.xml", updates=False)
    titles.append("Q1")
    wiki.titles = tuple(dict.fromkeys(titles))
    serve(wiki)
    try:
        wiki.hidden = tuple(suppressed_fields(SOURCES / HISTORIES[-1]))
        hide_again(wiki, wiki.hidden)
    except BaseException:
        wiki.stop()
        raise
    wiki.setup_seconds = time.monotonic() - started
    return wiki


def hide_again(wiki: MediaWiki, suppressed: tuple[tuple[str, str, str], ...]) -> None:
    """Hide, as the wiki's admin, the fields the original export had suppressed."""
    site = mwclient.Site(wiki.host, path=wiki.path, scheme="http")
    site.clientlogin(username=ADMIN_USER, password=ADMIN_PASSWORD)
    token = site.get_token("csrf")
    for title, timestamp, fields in suppressed:
        answer = site.get(
            "query", prop="revisions", titles=title, rvprop="ids",
            rvstart=timestamp, rvend=timestamp, rvlimit=1,
        )  # fmt: skip
        (page,) = answer["query"]["pages"].values()
        revid = page["revisions"][0]["revid"]
        site.post(
            "revisiondelete", type="revision", ids=str(revid), hide=fields,
            reason="hidden in the original export", token=token,
        )  # fmt: skip
