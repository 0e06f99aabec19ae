"""A Wikidata item's history as an XML export, from real revisions of Q1.

The texts are real revisions of Q1 (Wikibase's serialisation test data, tests/data/legacy/:
the internal format of 2012-2013 and the canonical one); the timestamps are made up, in the
order of the revision ids. The test wiki has no Wikibase, so its copy stores the JSON as
plain wikitext; the ``wikibase-item`` copy is what a Wikidata history dump holds.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

from tests.paths import DATA

ENTITY_REVISIONS = (  # (revision id, timestamp, file)
    (103, "2012-10-30T12:00:00Z", "items_legacy_old_Q1-103.json"),
    (1622, "2012-11-05T12:00:00Z", "items_legacy_old_Q1-1622.json"),
    (953112, "2013-03-01T12:00:00Z", "items_legacy_old_Q1-953112.json"),
    (10499806, "2014-01-20T12:00:00Z", "items_legacy_old_Q1-10499806.json"),
    (200000000, "2016-06-01T12:00:00Z", "items_current_Q1.json"),
)


def entity_history_xml(model: str) -> str:
    """The export of page ``Q1`` with every revision above, its text in content model
    ``model`` (``wikitext`` for the test wiki, ``wikibase-item`` as on Wikidata)."""
    fmt = "text/x-wiki" if model == "wikitext" else "application/json"
    revisions = "".join(
        f"<revision><id>{rid}</id><timestamp>{when}</timestamp>"
        "<contributor><username>Importer</username><id>1</id></contributor>"
        f"<model>{model}</model><format>{fmt}</format>"
        f'<text xml:space="preserve">{escape((DATA / "legacy" / name).read_text("utf-8").strip())}'
        "</text></revision>"
        for rid, when, name in ENTITY_REVISIONS
    )
    return (
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10">'
        "<siteinfo><sitename>Wikidata</sitename><dbname>wikidatawiki</dbname></siteinfo>"
        f"<page><title>Q1</title><ns>0</ns><id>129</id>{revisions}</page></mediawiki>"
    )
