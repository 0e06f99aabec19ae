"""What the synthetic knowledge graph looks like: subject kinds, property templates, churn rates.

Every number here is a probability or a distribution parameter; the SQL in
:mod:`bench.classify_gen.sql` turns them into rows with hash-based pseudo-random
draws, so the same :class:`GenParams` always gives the same store.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from datetime import date

# Temporal modes of a template (how its statements carry P580/P582/P585).
PLAIN = 0
"""No temporal qualifier."""
START_END = 1
"""A career: consecutive [start, end) intervals, the last one maybe still open (P39, P54, P6…)."""
START_ONLY = 2
"""A start (P580), sometimes an end (membership, education)."""
EVENT = 3
"""A point in time only (P585): an award received."""
SERIES = 4
"""A quantity with a point in time (P585): a measurement series (population, GDP)."""

# Value types: (datatype, value_type) as the ingest writes them.
DATATYPES: dict[str, tuple[str, str]] = {
    "item": ("wikibase-item", "wikibase-entityid"),
    "extid": ("external-id", "string"),
    "doi": ("external-id", "string"),
    "string": ("string", "string"),
    "url": ("url", "string"),
    "media": ("commonsMedia", "string"),
    "mono": ("monolingualtext", "monolingualtext"),
    "time": ("time", "time"),
    "quantity": ("quantity", "quantity"),
    "coord": ("globe-coordinate", "globecoordinate"),
}

Dist = tuple[int, int, float, float]
"""A capped Lomax (Pareto II) count: (min, max, alpha, scale); (1, 1, 1, 0) is always 1."""

ONE: Dist = (1, 1, 1.0, 0.0)


@dataclass(frozen=True)
class Template:
    """One kind of (subject, pid) group a subject of some kind may have.

    ``pid`` None draws the property from the external-identifier pool, ``count`` times
    per subject. ``pool`` is (first QID number, how many, skew) for item values (skew
    > 1 favours the first ones; n 0 means every subject), the amount range for
    quantities, and (first year, last year, skew towards the last) for times.
    ``tq`` is the share of the groups that carry the template's temporal qualifiers;
    ``churn`` scales the chance that a statement's value is replaced or a value added.
    """

    kind: str
    pid: str | None
    prob: float
    vtype: str
    size: Dist = ONE
    pool: tuple[int, int, float] = (1, 0, 1.0)
    tmode: int = PLAIN
    tq: float = 0.0
    churn: float = 1.0
    count: Dist = ONE
    unit: str = "1"


KINDS: dict[str, float] = {
    "article": 0.385,
    "human": 0.107,
    "place": 0.08,
    "taxon": 0.032,
    "org": 0.03,
    "country": 0.00015,
    "other": 0.36585,
}
"""Subject kinds and their share of the subjects, as real Wikidata's P31 counts (2025-09,
bench/README.md): scholarly articles 38.5 %, humans 10.7 %, taxa 3.2 %; ``other`` stands for
categories, stars, galaxies, genes, proteins, templates and the rest of the long tail."""

LABELS: dict[str, str] = {
    "article": "scholarly article",
    "human": "human",
    "place": "settlement",
    "taxon": "taxon",
    "org": "organization",
    "country": "country",
    "other": "item",
}

ALL = 0  # pool size 0: values drawn over all subjects
YEARS_RECENT = (1900, 2021, 0.6)
BIRTHS = (1450, 2005, 0.5)

# fmt: off
TEMPLATES: tuple[Template, ...] = (
    # scholarly articles: few groups but heavy P2860 (cites work) and author lists
    Template("article", "P31", 1.0, "item", pool=(13442814, 1, 1.0), churn=0.05),
    Template("article", "P1476", 0.95, "mono", churn=0.2),
    Template("article", "P577", 0.98, "time", pool=YEARS_RECENT, churn=0.1),
    Template("article", "P356", 0.85, "doi", churn=0.1),
    Template("article", "P698", 0.5, "extid", churn=0.1),
    Template("article", "P1433", 0.98, "item", pool=(1000000, 30000, 2.0)),
    Template("article", "P50", 0.32, "item", size=(1, 60, 1.8, 2.5), pool=(1, ALL, 1.3)),
    Template("article", "P2093", 0.5, "string", size=(1, 80, 1.5, 4.0)),
    Template("article", "P2860", 0.3, "item", size=(1, 1200, 1.15, 10.0), pool=(1, ALL, 1.5)),
    Template("article", "P921", 0.35, "item", size=(1, 8, 2.0, 2.0), pool=(1, ALL, 3.0)),
    Template("article", "P407", 0.5, "item", pool=(1860, 60, 4.0), churn=0.2),
    Template("article", "P478", 0.6, "string", churn=0.2),
    Template("article", "P304", 0.6, "string", churn=0.2),
    Template("article", None, 1.0, "extid", count=(1, 8, 2.0, 2.0)),
    # humans: dates of birth and death, occupations, careers with start/end
    Template("human", "P31", 1.0, "item", pool=(5, 1, 1.0), churn=0.02),
    Template("human", "P21", 0.95, "item", pool=(6581097, 2, 1.0), churn=0.05),
    Template("human", "P569", 0.85, "time", pool=BIRTHS, churn=0.3),
    Template("human", "P570", 0.4, "time", pool=BIRTHS, churn=0.3),
    Template("human", "P106", 0.8, "item", size=(1, 8, 2.0, 1.5), pool=(82955, 2000, 2.5)),
    Template("human", "P27", 0.7, "item", size=(1, 3, 3.0, 0.5), pool=(30, 200, 2.0),
             tmode=START_END, tq=0.05),
    Template("human", "P735", 0.6, "item", size=(1, 2, 4.0, 0.3), pool=(100000, 50000, 2.0)),
    Template("human", "P734", 0.5, "item", pool=(200000, 80000, 2.0)),
    Template("human", "P19", 0.5, "item", pool=(1, ALL, 2.0), churn=0.3),
    Template("human", "P20", 0.25, "item", pool=(1, ALL, 2.0), churn=0.3),
    Template("human", "P39", 0.25, "item", size=(1, 12, 1.5, 3.0), pool=(300000, 20000, 2.0),
             tmode=START_END, tq=0.9),
    Template("human", "P54", 0.3, "item", size=(1, 15, 1.5, 4.0), pool=(400000, 50000, 1.5),
             tmode=START_END, tq=0.85),
    Template("human", "P108", 0.2, "item", size=(1, 5, 2.0, 1.5), pool=(1, ALL, 2.0),
             tmode=START_END, tq=0.7),
    Template("human", "P69", 0.3, "item", size=(1, 4, 2.0, 1.0), pool=(500000, 30000, 2.0),
             tmode=START_ONLY, tq=0.6),
    Template("human", "P26", 0.1, "item", size=(1, 3, 3.0, 0.5), tmode=START_END, tq=0.8),
    Template("human", "P166", 0.08, "item", size=(1, 8, 1.8, 1.5), pool=(600000, 5000, 2.0),
             tmode=EVENT, tq=0.9),
    Template("human", "P463", 0.05, "item", size=(1, 5, 2.0, 1.0), pool=(700000, 3000, 2.0),
             tmode=START_ONLY, tq=0.6),
    Template("human", "P102", 0.1, "item", size=(1, 3, 2.0, 1.0), pool=(710000, 2000, 2.0),
             tmode=START_END, tq=0.7),
    Template("human", "P551", 0.1, "item", size=(1, 4, 2.0, 1.0), pool=(1, ALL, 2.0),
             tmode=START_END, tq=0.6),
    Template("human", "P509", 0.04, "item", pool=(800000, 500, 2.0)),
    Template("human", "P1196", 0.02, "item", pool=(900000, 6, 1.5)),
    Template("human", "P18", 0.15, "media"),
    Template("human", "P1412", 0.3, "item", size=(1, 3, 3.0, 0.7), pool=(1860, 60, 4.0)),
    Template("human", None, 1.0, "extid", count=(0, 60, 1.3, 4.0)),
    # places: administrative hierarchy, coordinates, population series, mayors
    Template("place", "P31", 1.0, "item", pool=(486972, 3, 1.0), churn=0.1),
    Template("place", "P17", 0.98, "item", size=(1, 2, 6.0, 0.3), pool=(30, 200, 2.0),
             tmode=START_END, tq=0.03, churn=0.2),
    Template("place", "P131", 0.9, "item", size=(1, 3, 3.0, 0.7), pool=(1, ALL, 2.0),
             tmode=START_END, tq=0.2),
    Template("place", "P625", 0.9, "coord", churn=0.5),
    Template("place", "P1082", 0.45, "quantity", size=(1, 60, 1.3, 4.0), pool=(50, 5000000, 3.0),
             tmode=SERIES, tq=1.0),
    Template("place", "P6", 0.2, "item", size=(1, 15, 1.3, 4.0), tmode=START_END, tq=0.9),
    Template("place", "P281", 0.4, "string", churn=0.3),
    Template("place", "P571", 0.15, "time", pool=(1000, 2010, 0.7), churn=0.3),
    Template("place", "P190", 0.04, "item", size=(1, 25, 1.5, 3.0), pool=(1, ALL, 2.0)),
    Template("place", "P150", 0.04, "item", size=(1, 150, 1.2, 6.0)),
    Template("place", "P47", 0.3, "item", size=(1, 12, 2.0, 3.0)),
    Template("place", "P2044", 0.4, "quantity", pool=(0, 3000, 2.0), unit="Q11573"),
    Template("place", "P18", 0.3, "media"),
    Template("place", None, 1.0, "extid", count=(0, 15, 1.8, 3.0)),
    # taxa: names and many identifiers
    Template("taxon", "P31", 1.0, "item", pool=(16521, 1, 1.0), churn=0.02),
    Template("taxon", "P225", 1.0, "string", churn=0.1),
    Template("taxon", "P105", 1.0, "item", pool=(7432, 30, 3.0), churn=0.1),
    Template("taxon", "P171", 0.98, "item", pool=(1, ALL, 2.0), churn=0.5),
    Template("taxon", "P1843", 0.25, "mono", size=(1, 6, 1.5, 1.0)),
    Template("taxon", "P18", 0.2, "media"),
    Template("taxon", None, 1.0, "extid", count=(1, 25, 1.5, 3.0)),
    # organisations: inception, CEOs, employee counts
    Template("org", "P31", 1.0, "item", pool=(4830453, 30, 2.0), churn=0.2),
    Template("org", "P17", 0.9, "item", pool=(30, 200, 2.0), tmode=START_END, tq=0.02),
    Template("org", "P159", 0.6, "item", pool=(1, ALL, 2.0), churn=0.5),
    Template("org", "P571", 0.7, "time", pool=(1800, 2021, 0.6), churn=0.2),
    Template("org", "P576", 0.1, "time", pool=(1850, 2021, 0.6), churn=0.2),
    Template("org", "P169", 0.35, "item", size=(1, 6, 2.0, 1.5), tmode=START_END, tq=0.9),
    Template("org", "P488", 0.2, "item", size=(1, 5, 2.0, 1.5), tmode=START_END, tq=0.9),
    Template("org", "P452", 0.4, "item", size=(1, 3, 3.0, 0.7), pool=(8148, 500, 2.0)),
    Template("org", "P1128", 0.12, "quantity", size=(1, 20, 1.5, 2.0), pool=(5, 200000, 3.0),
             tmode=SERIES, tq=1.0),
    Template("org", "P2139", 0.05, "quantity", size=(1, 15, 1.5, 2.0), pool=(1000, 10**10, 3.0),
             tmode=SERIES, tq=1.0, unit="Q4917"),
    Template("org", "P856", 0.6, "url", churn=0.5),
    Template("org", "P112", 0.2, "item", size=(1, 3, 3.0, 0.7)),
    Template("org", None, 1.0, "extid", count=(0, 12, 1.8, 2.0)),
    # countries (a handful): hundreds of statements, long careers and series
    Template("country", "P31", 1.0, "item", pool=(6256, 1, 1.0), churn=0.02),
    Template("country", "P35", 1.0, "item", size=(5, 40, 2.0, 8.0), tmode=START_END, tq=1.0),
    Template("country", "P6", 1.0, "item", size=(5, 40, 2.0, 8.0), tmode=START_END, tq=1.0),
    Template("country", "P1082", 1.0, "quantity", size=(20, 120, 2.0, 30.0),
             pool=(10000, 10**8, 2.0), tmode=SERIES, tq=1.0),
    Template("country", "P2131", 0.9, "quantity", size=(10, 60, 2.0, 15.0),
             pool=(10**8, 10**12, 2.0), tmode=SERIES, tq=1.0, unit="Q4917"),
    Template("country", "P36", 1.0, "item", size=(1, 4, 2.0, 1.0), tmode=START_END, tq=0.7),
    Template("country", "P37", 1.0, "item", size=(1, 5, 2.0, 1.0), pool=(1860, 60, 2.0)),
    Template("country", "P38", 1.0, "item", size=(1, 3, 2.0, 1.0), pool=(4916, 100, 2.0),
             tmode=START_END, tq=0.5),
    Template("country", "P530", 0.95, "item", size=(50, 200, 2.0, 60.0), pool=(30, 200, 1.0)),
    Template("country", "P47", 1.0, "item", size=(1, 15, 2.0, 4.0), pool=(30, 200, 1.0)),
    Template("country", "P150", 1.0, "item", size=(5, 100, 2.0, 20.0)),
    Template("country", "P463", 1.0, "item", size=(5, 40, 2.0, 10.0), pool=(700000, 3000, 2.0),
             tmode=START_ONLY, tq=0.8),
    Template("country", "P625", 1.0, "coord", churn=0.2),
    Template("country", None, 1.0, "extid", count=(20, 80, 2.0, 30.0)),
    # everything else
    Template("other", "P31", 1.0, "item", pool=(1000, 5000, 3.0), churn=0.2),
    Template("other", "P279", 0.2, "item", size=(1, 3, 3.0, 0.7), pool=(1000, 5000, 2.0)),
    Template("other", "P18", 0.2, "media"),
    Template("other", "P373", 0.15, "string", churn=0.3),
    Template("other", "P17", 0.2, "item", pool=(30, 200, 2.0), churn=0.3),
    Template("other", "P625", 0.1, "coord", churn=0.5),
    Template("other", "P571", 0.1, "time", pool=(1500, 2021, 0.6), churn=0.3),
    Template("other", "P361", 0.2, "item", pool=(1, ALL, 2.0)),
    Template("other", "P527", 0.05, "item", size=(1, 50, 1.3, 4.0)),
    Template("other", None, 1.0, "extid", count=(0, 60, 1.2, 0.5)),
)
# fmt: on

EXTERNAL_ID_PIDS: tuple[str, ...] = (
    "P214", "P227", "P244", "P213", "P646", "P2671", "P1566", "P349", "P268", "P269",
    "P1006", "P345", "P2002", "P434", "P1053", "P496", "P685", "P846", "P830", "P815",
    "P1417", "P3219", "P1015", "P950", "P906", "P1207", "P2163", "P7859", "P8189", "P5034",
    *(f"P{n}" for n in range(4000, 4370)),
)  # fmt: skip
"""External-identifier properties, most used first (drawn with a Zipf-like skew)."""
EXTERNAL_ID_SKEW = 2.5


@dataclass(frozen=True)
class Churn:
    """Chances per snapshot transition (statement, group or subject level)."""

    replace: float = 0.015
    """A statement's value is replaced (scaled by the template's churn)."""
    add: float = 0.09
    """A group gains a statement with a new value (scaled by churn; start-only and event groups
    gain one starting or happening between the snapshots)."""
    remove: float = 0.004
    """A statement is removed."""
    remove_group: float = 0.002
    """A whole group is removed."""
    end_and_start: float = 0.08
    """A career group (P39, P54, P6…): the open statement gets an end date between the
    snapshots and (with chance ``successor``) a new statement starts on that date."""
    successor: float = 0.8
    census: float = 0.15
    """A measurement series gains a new figure with a point in time between the snapshots."""
    rank: float = 0.002
    """A statement's rank changes (normal to preferred or deprecated, or back to normal)."""
    new_subjects: float = 0.022
    """New subjects, as a share of the base subjects, created per transition."""
    new_groups: float = 0.05
    """A subject gains a new external-identifier group."""
    delete_subject: float = 0.002
    """A subject is deleted (absent from later snapshots)."""
    redirect_subject: float = 0.001
    """A subject becomes a redirect to another one (no statements)."""


@dataclass(frozen=True)
class Shape:
    """Shares of values and qualifiers inside the statements."""

    somevalue: float = 0.002
    novalue: float = 0.0015
    deprecated: float = 0.005
    preferred: float = 0.015
    day_precision: float = 0.75
    """Share of qualifier dates at day precision; the rest at year (most) or month precision."""
    year_precision: float = 0.2
    open_career: float = 0.6
    """Share of careers whose last statement has no end yet."""
    somevalue_start: float = 0.01
    somevalue_end: float = 0.04
    start_only_end: float = 0.3
    """Share of start-only statements (memberships…) that also have an end."""
    julian_before_1583: float = 0.9
    preferred_series: float = 0.3
    """Share of measurement series whose last base figure has preferred rank."""


LANGUAGES: tuple[str, ...] = (
    "en", "de", "fr", "es", "it", "nl", "ru", "pt", "pl", "sv", "ja", "zh", "ar", "uk", "ca",
    "cs", "fa", "fi", "he", "hu", "id", "ko", "nb", "ro", "sr", "tr", "vi", "da", "el", "eo",
    "et", "eu", "gl", "hr", "hy", "ka", "lt", "lv", "ms", "sk", "sl", "sq", "th", "bg", "bn",
    "hi", "ast", "be", "bs", "ceb", "cy", "ga", "ia", "is", "kk", "la", "mk", "ml", "mn", "mr",
    "nn", "oc", "pa", "sco", "ta", "te", "tl", "ur", "uz", "war", "yue", "zh-hans", "zh-hant",
    "en-gb", "en-ca", "de-ch", "pt-br", "sr-ec", "sr-el", "af", "an", "az", "br", "ckb", "fo",
    "fy", "gd", "ht", "io", "jv", "ku", "lb", "li", "mg", "nds", "ne", "pms", "rm", "sw", "vo",
)  # fmt: skip
"""Label languages, most used first (an entity with n labels has the first n)."""

WIKIS: tuple[str, ...] = (
    "enwiki", "cebwiki", "dewiki", "frwiki", "svwiki", "nlwiki", "ruwiki", "eswiki", "itwiki",
    "plwiki", "arzwiki", "zhwiki", "jawiki", "ukwiki", "viwiki", "warwiki", "arwiki", "ptwiki",
    "fawiki", "cawiki", "idwiki", "srwiki", "kowiki", "nowiki", "fiwiki", "huwiki", "cswiki",
    "trwiki", "shwiki", "rowiki", "zh_min_nanwiki", "euwiki", "mswiki", "eowiki", "hewiki",
    "hywiki", "dawiki", "bgwiki", "cywiki", "skwiki", "azbwiki", "etwiki", "kkwiki", "bewiki",
    "uzwiki", "elwiki", "simplewiki", "ltwiki", "slwiki", "hrwiki", "commonswiki", "enwikisource",
)  # fmt: skip
"""Sitelink sites, largest first: an item linked to k sites has k of these (see Terms)."""


@dataclass(frozen=True)
class Terms:
    """Labels, descriptions, aliases and sitelinks per entity (real Wikidata, bench/README.md:
    ~5 labels, ~25 descriptions, ~1 alias an item; 27 % of the items linked to a Wikipedia,
    ~2.1 Wikipedias each, enwiki on ~6 % of all items)."""

    labels: Dist = (1, 100, 1.6, 3.2)
    """Labels per entity (always English first, then the next languages in order)."""
    article_descriptions: tuple[int, int] = (40, 75)
    """Descriptions of a scholarly article: uniform in [lo, hi) (bots describe them in many
    languages), the bulk of Wikidata's descriptions."""
    descriptions: Dist = (1, 100, 1.5, 3.0)
    """Descriptions of any other entity."""
    aliases: Dist = (0, 50, 1.5, 0.75)
    linked: float = 0.267
    """Share of the items with at least one sitelink."""
    sitelinks: Dist = (1, 52, 1.2, 0.22)
    """Sitelinks of a linked item: the first is its home wiki, more come from the largest."""
    home_en: float = 0.085
    """Chance that a linked item's home wiki (its only one, if it has one) is enwiki."""


@dataclass(frozen=True)
class GenParams:
    """Everything the generated store depends on (recorded in ``gen.json``)."""

    statements: int
    snapshots: int = 3
    seed: int = 42
    start: str = "2022-01-01"
    months_between: int = 6
    churn: Churn = field(default_factory=Churn)
    shape: Shape = field(default_factory=Shape)
    terms: Terms = field(default_factory=Terms)
    version: int = 2

    def dates(self) -> list[date]:
        """The snapshot dates, ``months_between`` apart from ``start``."""
        first = date.fromisoformat(self.start)
        result = []
        for index in range(self.snapshots):
            months = first.month - 1 + index * self.months_between
            result.append(date(first.year + months // 12, months % 12 + 1, first.day))
        return result

    def names(self) -> list[str]:
        """The snapshot names: ``syn-YYYY-MM-DD``."""
        return [f"syn-{day.isoformat()}" for day in self.dates()]

    def as_json(self) -> dict[str, object]:
        """Plain JSON form."""
        return asdict(self)

    def digest(self) -> str:
        """SHA-256 of the parameters and the model (snapshots' ``source.sha256`` derive from it)."""
        world = {
            "params": self.as_json(),
            "kinds": KINDS,
            "templates": [asdict(t) for t in TEMPLATES],
            "external_ids": EXTERNAL_ID_PIDS,
            "languages": LANGUAGES,
            "wikis": WIKIS,
        }
        text = json.dumps(world, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()


def kind_codes() -> dict[str, int]:
    """Kind name → small integer code used in the SQL."""
    return {name: code for code, name in enumerate(KINDS)}


QUALIFIER_DATATYPES: dict[str, str] = {
    "P580": "time",
    "P582": "time",
    "P585": "time",
    "P1545": "string",
    "P248": "wikibase-item",
}
"""Properties used in qualifiers (start, end, point in time, series ordinal) and references."""

PROPERTY_LABELS: dict[str, str] = {
    "P31": "instance of", "P17": "country", "P131": "located in the administrative territorial "
    "entity", "P106": "occupation", "P27": "country of citizenship", "P569": "date of birth",
    "P570": "date of death", "P1082": "population", "P6": "head of government",
    "P35": "head of state", "P39": "position held", "P54": "member of sports team",
    "P108": "employer", "P169": "chief executive officer", "P50": "author",
    "P2093": "author name string", "P2860": "cites work", "P1433": "published in",
    "P577": "publication date", "P1476": "title", "P921": "main subject",
    "P407": "language of work or name", "P21": "sex or gender", "P735": "given name",
    "P734": "family name", "P19": "place of birth", "P20": "place of death",
    "P69": "educated at", "P26": "spouse", "P166": "award received", "P463": "member of",
    "P102": "member of political party", "P625": "coordinate location", "P36": "capital",
    "P37": "official language", "P38": "currency", "P530": "diplomatic relation",
    "P47": "shares border with", "P150": "contains the administrative territorial entity",
    "P159": "headquarters location", "P571": "inception", "P576": "dissolved",
    "P279": "subclass of", "P361": "part of", "P527": "has part", "P18": "image",
    "P171": "parent taxon", "P225": "taxon name", "P105": "taxon rank",
    "P580": "start time", "P582": "end time", "P585": "point in time",
    "P1545": "series ordinal", "P248": "stated in",
}  # fmt: skip
"""English labels of the properties the statements use most (others: ``property Pnnn``)."""


def property_datatypes() -> dict[str, str]:
    """Every property a generated store uses, with its datatype."""
    found = {t.pid: DATATYPES[t.vtype][0] for t in TEMPLATES if t.pid is not None}
    found.update({pid: "external-id" for pid in EXTERNAL_ID_PIDS})
    found.update(QUALIFIER_DATATYPES)
    return found
