"""Wiki names in page view data: dump domain codes and REST projects to database names.

Hourly dumps (``pageviews-*``, legacy ``pagecounts-*``) abbreviate the requested domain:
a language or site, then an optional traffic marker, then an optional project suffix.

=========  ==========================  =========================================
suffix     project                     example
=========  ==========================  =========================================
(none)     Wikipedia                   ``en`` → ``enwiki``
``.b``     Wikibooks                   ``de.b`` → ``dewikibooks``
``.d``     Wiktionary                  ``fr.d`` → ``frwiktionary``
``.n``     Wikinews                    ``en.n`` → ``enwikinews``
``.q``     Wikiquote                   ``it.q`` → ``itwikiquote``
``.s``     Wikisource                  ``de.s`` → ``dewikisource``
``.v``     Wikiversity                 ``en.v`` → ``enwikiversity``
``.voy``   Wikivoyage                  ``en.voy`` → ``enwikivoyage``
``.m``     a wikimedia.org site        ``commons.m`` → ``commonswiki``
``.w``     mediawiki.org               ``www.w`` → ``mediawikiwiki``
``.wd``    wikidata.org                ``www.wd`` → ``wikidatawiki``
``.f``     wikimediafoundation.org     ``www.f`` → ``foundationwiki``
``.mw``    mobile Wikipedia, legacy    ``en.mw`` → ``enwiki`` (project totals)
=========  ==========================  =========================================

Traffic markers: ``.m`` (mobile site) and ``.zero`` (Wikipedia Zero, also mobile) come
second, so ``en.m`` is mobile ``enwiki``, ``en.m.d`` mobile ``enwiktionary`` and
``commons.m.m`` mobile Commons. A lone ``.m`` is therefore ambiguous: it means a
wikimedia.org site when the first part is one (:data:`WIKIMEDIA_SITES`), else mobile
Wikipedia. Legacy ``.mw`` lines carry a whole project's mobile total (the "title" is the
language code), so they are flagged as aggregates, not pages.

"Pageview complete" files and the REST API name projects by domain instead
(``en.wikipedia``, ``commons.wikimedia``, ``www.wikidata``), see :func:`project_wiki`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

DESKTOP = "desktop"
MOBILE_WEB = "mobile-web"

_SUFFIX_FAMILY = {
    "": "wiki",
    "b": "wikibooks",
    "d": "wiktionary",
    "n": "wikinews",
    "q": "wikiquote",
    "s": "wikisource",
    "v": "wikiversity",
    "voy": "wikivoyage",
}
_SUFFIX_FIXED = {"w": "mediawikiwiki", "wd": "wikidatawiki", "f": "foundationwiki"}
_TRAFFIC = {"m", "zero"}

WIKIMEDIA_SITES = frozenset(
    {"commons", "meta", "species", "incubator", "outreach", "strategy", "usability",
     "quality", "foundation", "login", "ten", "vote", "wikitech", "api", "wg-en"}
)  # fmt: skip
_WIKIMANIA = re.compile(r"wikimania\d{0,4}")
_SITE = re.compile(r"[a-z0-9][a-z0-9-]*")

_DOMAIN_FAMILY = {
    "wikipedia": "wiki",
    "wikibooks": "wikibooks",
    "wiktionary": "wiktionary",
    "wikinews": "wikinews",
    "wikiquote": "wikiquote",
    "wikisource": "wikisource",
    "wikiversity": "wikiversity",
    "wikivoyage": "wikivoyage",
    "wikimedia": "wiki",
}
_DOMAIN_FIXED = {
    "wikidata": "wikidatawiki",
    "mediawiki": "mediawikiwiki",
    "wikimediafoundation": "foundationwiki",
    "wikifunctions": "wikifunctionswiki",
}
_FIXED_PROJECT = {
    "wikidatawiki": "www.wikidata.org",
    "mediawikiwiki": "www.mediawiki.org",
    "foundationwiki": "foundation.wikimedia.org",
    "wikifunctionswiki": "www.wikifunctions.org",
}


@dataclass(frozen=True, slots=True)
class Site:
    """Where a count belongs: the wiki's database name and how it was reached."""

    wiki: str
    access: str
    aggregate: bool = False
    """True for legacy ``.mw`` lines: a project's total, not a page's views."""


def is_wikimedia_site(name: str) -> bool:
    """True when ``name.wikimedia.org`` is a wiki of its own (Commons, Meta, …)."""
    return name in WIKIMEDIA_SITES or _WIKIMANIA.fullmatch(name) is not None


def _dbname(site: str, family: str) -> str:
    return site.replace("-", "_") + family


@lru_cache(maxsize=4096)  # a dump repeats a few thousand codes millions of times
def dump_site(code: str) -> Site | None:
    """The wiki and access of an hourly dump domain code; ``None`` if it is not one."""
    first, *rest = code.split(".")
    if not _SITE.fullmatch(first) or len(rest) > 2:
        return None
    access = DESKTOP
    if (len(rest) == 2 and rest[0] in _TRAFFIC) or rest == ["zero"]:
        access, rest = MOBILE_WEB, rest[1:]
    elif rest == ["m"] and not is_wikimedia_site(first):
        access, rest = MOBILE_WEB, []
    if len(rest) > 1:
        return None
    suffix = rest[0] if rest else ""
    if suffix == "mw":
        return Site(_dbname(first, "wiki"), MOBILE_WEB, aggregate=True)
    if suffix == "m":
        return Site(_dbname(first, "wiki"), access)
    if suffix in _SUFFIX_FIXED:
        return Site(_SUFFIX_FIXED[suffix], access)
    if suffix in _SUFFIX_FAMILY:
        return Site(_dbname(first, _SUFFIX_FAMILY[suffix]), access)
    return None


@lru_cache(maxsize=4096)
def project_wiki(project: str) -> str | None:
    """The database name of a domain-style project (``en.wikipedia``, ``www.wikidata``,
    ``commons.wikimedia.org``, ``wikidata``); ``None`` if it is not one."""
    parts = project.lower().removesuffix(".org").split(".")
    if len(parts) == 1 and parts[0] in _DOMAIN_FIXED:
        return _DOMAIN_FIXED[parts[0]]
    if len(parts) == 3 and parts[1] == "m":  # a mobile domain such as en.m.wikipedia
        parts = [parts[0], parts[2]]
    if len(parts) != 2 or not _SITE.fullmatch(parts[0]):
        return None
    site, domain = parts
    if domain in _DOMAIN_FIXED:
        return _DOMAIN_FIXED[domain]
    if domain in _DOMAIN_FAMILY:
        return _dbname(site, _DOMAIN_FAMILY[domain])
    return None


def wiki_project(wiki: str) -> str | None:
    """The REST API project (a domain) of a database name: ``enwiki`` → ``en.wikipedia.org``."""
    if wiki in _FIXED_PROJECT:
        return _FIXED_PROJECT[wiki]
    for domain, family in _DOMAIN_FAMILY.items():
        if family == "wiki" or not wiki.endswith(family):
            continue
        return _domain(wiki.removesuffix(family), domain)
    if wiki.endswith("wiki"):
        site = wiki.removesuffix("wiki")
        return _domain(site, "wikimedia" if is_wikimedia_site(site) else "wikipedia")
    return None


def _domain(site: str, domain: str) -> str | None:
    name = site.replace("_", "-")
    return f"{name}.{domain}.org" if _SITE.fullmatch(name) else None
