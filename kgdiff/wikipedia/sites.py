"""Which wiki a dump comes from, and which language its text is in.

Wikidata's sitelinks name a wiki by its database name (``enwiki``, ``simplewiki``,
``zh_yuewiki``); exports of schema ≥ 0.10 state it in ``<siteinfo><dbname>``, older ones
only give the main page's URL in ``<base>``.
"""

from __future__ import annotations

import re
from urllib.parse import urlparse

from kgdiff.errors import UsageError

_PROJECT_SUFFIX = {
    "wikipedia": "wiki",
    "wiktionary": "wiktionary",
    "wikibooks": "wikibooks",
    "wikinews": "wikinews",
    "wikiquote": "wikiquote",
    "wikisource": "wikisource",
    "wikiversity": "wikiversity",
    "wikivoyage": "wikivoyage",
}
_SPECIAL_HOSTS = {
    "commons.wikimedia.org": "commonswiki",
    "meta.wikimedia.org": "metawiki",
    "species.wikimedia.org": "specieswiki",
    "www.wikidata.org": "wikidatawiki",
    "www.mediawiki.org": "mediawikiwiki",
}
_LANGUAGE_OF_CODE = {"simple": "en", "be_x_old": "be-tarask", "zh_classical": "lzh"}
"""Wiki language codes whose Wikidata term language differs from the code."""
_DBNAME = re.compile(r"[a-z][a-z0-9_]*")


def wiki_from_base(base_url: str | None) -> str | None:
    """The database name of the wiki whose main page is ``base_url``, when it can be told."""
    if not base_url:
        return None
    host = urlparse(base_url).hostname or ""
    if host in _SPECIAL_HOSTS:
        return _SPECIAL_HOSTS[host]
    parts = host.split(".")
    if len(parts) == 3 and parts[1] in _PROJECT_SUFFIX and parts[2] == "org":
        return parts[0].replace("-", "_") + _PROJECT_SUFFIX[parts[1]]
    return None


def resolve_wiki(given: str | None, dbname: str | None, base_url: str | None, path: str) -> str:
    """The wiki of a dump: ``--wiki`` if given, else what its header says."""
    wiki = given or dbname or wiki_from_base(base_url)
    if wiki is None:
        raise UsageError(
            f"{path}: the dump does not say which wiki it is from (no <dbname>, and <base> "
            f"{base_url!r} is not a Wikimedia URL); pass --wiki, e.g. --wiki enwiki"
        )
    if not _DBNAME.fullmatch(wiki):
        raise UsageError(f"wiki {wiki!r} is not a database name like enwiki or simplewiki")
    return wiki


def wiki_language(wiki: str) -> str:
    """The Wikidata term language of a wiki's text (``enwiki`` → ``en``, ``simplewiki`` → ``en``).

    Multilingual wikis (Commons, Wikidata, Meta, …) are written mostly in English."""
    if wiki in _SPECIAL_HOSTS.values():
        return "en"
    for suffix in sorted(_PROJECT_SUFFIX.values(), key=len, reverse=True):
        if wiki.endswith(suffix) and len(wiki) > len(suffix):
            code = wiki[: -len(suffix)]
            return _LANGUAGE_OF_CODE.get(code, code.replace("_", "-"))
    return "en"
