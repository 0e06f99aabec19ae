"""Sitelinks as Wikidata's RDF writes them: the page's URL is the subject, with
``schema:about`` the entity, ``schema:inLanguage`` the wiki's language, ``schema:isPartOf``
the wiki and ``schema:name`` the title.

The store keeps a sitelink's site id (``enwiki``, ``frwikivoyage``) and title, not the URL:
the URL is rebuilt from Wikimedia's naming of its wikis. Sites outside that naming (other
Wikibase installations) are skipped by the caller, since their URL cannot be known.
"""

from __future__ import annotations

from typing import NamedTuple
from urllib.parse import quote

from kgdiff.wikisites import FAMILIES, SPECIAL_HOSTS

# MediaWiki's wfUrlencode leaves these characters of a title readable
_TITLE_SAFE = ";:@$!*(),/~"


class Site(NamedTuple):
    """Where a site's pages live and the language it is in."""

    host: str
    language: str


def site_of(site_id: str) -> Site | None:
    """The host and language of a Wikimedia site id, None if it is not one."""
    if site_id in SPECIAL_HOSTS:
        host, language = SPECIAL_HOSTS[site_id]
        return Site(host, language)
    for suffix in sorted(FAMILIES, key=len, reverse=True):
        if site_id.endswith(suffix) and len(site_id) > len(suffix):
            language = site_id[: -len(suffix)].replace("_", "-")
            return Site(f"{language}.{FAMILIES[suffix]}.org", language)
    return None


def page_url(site: Site, title: str) -> str:
    """The URL of a page, as Wikidata's RDF names it (spaces as underscores, encoded)."""
    return f"https://{site.host}/wiki/" + quote(title.replace(" ", "_"), safe=_TITLE_SAFE)
