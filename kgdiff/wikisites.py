"""Wikimedia's site ids and hosts: ``enwiki`` is ``en.wikipedia.org``, ``frwikivoyage``
``fr.wikivoyage.org``, and a few projects have hosts of their own. The RDF export names a
sitelink's page by its URL (:mod:`kgdiff.export.rdf.sites`); the RDF reader reads the site id
back from it (:mod:`kgdiff.readers.rdf_entities`)."""

from __future__ import annotations

FAMILIES = {
    "wiki": "wikipedia",
    "wikivoyage": "wikivoyage",
    "wikiquote": "wikiquote",
    "wikisource": "wikisource",
    "wikinews": "wikinews",
    "wiktionary": "wiktionary",
    "wikibooks": "wikibooks",
    "wikiversity": "wikiversity",
}
"""A site id's suffix → the project's second-level domain (``enwiki`` → ``wikipedia``)."""
SPECIAL_HOSTS = {
    "commonswiki": ("commons.wikimedia.org", "en"),
    "specieswiki": ("species.wikimedia.org", "en"),
    "metawiki": ("meta.wikimedia.org", "en"),
    "wikidatawiki": ("www.wikidata.org", "en"),
    "mediawikiwiki": ("www.mediawiki.org", "en"),
    "sourceswiki": ("wikisource.org", "en"),
}
"""Site ids whose host is not ``<language>.<project>.org``: their host and language."""
