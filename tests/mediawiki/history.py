"""A long synthetic page history built from a real article, as a MediaWiki export.

The lead of a real enwiki article (from the gensim sample) grows sentence by sentence over
600+ revisions spread across twelve years, while a window of its body text slides along
underneath, so every revision differs from the one before it. Vandal edits (blanking,
cutting the lead, mentioning a fact too early) are each undone by the next revision, which
restores the earlier text byte for byte (a revert: its sha1 equals an earlier one). The
sentence naming ``SECOND_TERM`` enters the lead deep in the history, so "the first revision
after t whose lead mentions both terms" has one right answer, and one reverted wrong one.
"""

from __future__ import annotations

import bz2
import random
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from xml.sax.saxutils import escape

from lxml import etree

SOURCE_TITLE = "Albert Einstein"
TITLE = "Albert Einstein (synthetic history)"
FIRST_TERM = "Albert Einstein"
SECOND_TERM = "Manhattan Project"
BASE_REVISIONS = 600
VANDAL_PAIRS = 12
BODY_WINDOW = 40
_START = datetime(2004, 1, 5, 9, 0, 0, tzinfo=UTC)
_SPAN_DAYS = 12 * 365
_OPENERS = frozenset({"{{", "[[", "<!--"})
_SENTENCE_ENDS = frozenset({".", "!", "?"})
_TOKEN = re.compile(r"\{\{|\}\}|\[\[|\]\]|<!--|-->|<ref[^>]*/>|<ref[^>]*>|</ref>|\s+|.", re.S)


@dataclass(frozen=True)
class SyntheticRevision:
    """One revision of the synthetic page; ``lead`` is its text before the first heading."""

    timestamp: datetime
    text: str
    lead: str
    user: str
    comment: str
    minor: bool
    reverted: bool


@dataclass(frozen=True)
class SyntheticHistory:
    """The revisions, oldest first, and where the second term first enters the lead."""

    title: str
    revisions: tuple[SyntheticRevision, ...]
    first_mention: int
    """Index of the first revision whose lead names both terms (a reverted vandal edit)."""
    first_lasting_mention: int
    """Index of the first revision, not reverted, whose lead names both terms."""


def article_text(enwiki_bz2: Path, title: str = SOURCE_TITLE) -> str:
    """The wikitext of one page of a (bz2-compressed) MediaWiki export."""
    with bz2.open(enwiki_bz2, "rb") as handle:
        for _event, page in etree.iterparse(handle, tag="{*}page"):
            if page.findtext("{*}title") == title:
                return page.findtext("{*}revision/{*}text") or ""
            page.clear()
    raise LookupError(f"{enwiki_bz2}: no page titled {title!r}")


def lead_units(lead: str) -> list[str]:
    """The lead cut after each sentence or paragraph that ends outside any template, link,
    comment or reference, so every prefix of the units is balanced wikitext."""
    units: list[str] = []
    depth, start, last = 0, 0, ""
    for match in _TOKEN.finditer(lead):
        token = match.group()
        if token in _OPENERS or (token.startswith("<ref") and not token.endswith("/>")):
            depth += 1
        elif token in ("}}", "]]", "-->", "</ref>"):
            depth = max(0, depth - 1)
        elif token.isspace():
            if depth == 0 and (last in _SENTENCE_ENDS or "\n\n" in token):
                units.append(lead[start : match.end()])
                start = match.end()
        elif depth == 0 and not token.startswith("<ref"):
            last = token
    units.append(lead[start:])
    return [unit for unit in units if unit]


def build_history(enwiki_bz2: Path, seed: int = 20160424) -> SyntheticHistory:
    """The synthetic history of ``TITLE`` (deterministic for a seed)."""
    text = article_text(enwiki_bz2)
    lead, _, body = text.partition("\n==")
    units = lead_units(lead)
    body_units = [u for u in re.split(r"(?<=[.,;:])\s+", body) if u]
    rng = random.Random(seed)
    states = [_state(units, body_units, k) for k in range(BASE_REVISIONS)]
    second = next(k for k, (lead_text, _) in enumerate(states) if SECOND_TERM in lead_text)
    vandal_at = _vandal_positions(rng, second)
    revisions = _revisions(rng, states, vandal_at, units)
    first = next(i for i, r in enumerate(revisions) if _names_both(r.lead))
    lasting = next(i for i, r in enumerate(revisions) if _names_both(r.lead) and not r.reverted)
    return SyntheticHistory(TITLE, tuple(revisions), first, lasting)


def _names_both(lead: str) -> bool:
    return FIRST_TERM in lead and SECOND_TERM in lead


def _state(units: list[str], body_units: list[str], k: int) -> tuple[str, str]:
    """Lead and whole text of base revision ``k``: every lead sentence is in by 85 %."""
    count = 1 + (k * (len(units) - 1)) // int(BASE_REVISIONS * 0.85)
    lead = "".join(units[: min(count, len(units))]).rstrip()
    window = " ".join(body_units[k : k + BODY_WINDOW])
    return lead, f"{lead}\n\n== Biography ==\n{window}\n"


def _vandal_positions(rng: random.Random, second: int) -> dict[int, str]:
    """Base revisions followed by a vandal edit, and its kind; one mentions the second
    term a hundred revisions before it really enters the lead."""
    spots = sorted(rng.sample(range(20, BASE_REVISIONS - 5), VANDAL_PAIRS * 3))
    chosen = [k for k in spots if abs(k - second) > 3][::3][: VANDAL_PAIRS - 1]
    kinds = {k: ("blank" if i % 2 else "cut-lead") for i, k in enumerate(chosen)}
    kinds[second - 100] = "early-mention"
    return kinds


def _revisions(
    rng: random.Random, states: list[tuple[str, str]], vandal_at: dict[int, str], units: list[str]
) -> list[SyntheticRevision]:
    early = next(u for u in units if SECOND_TERM in u)
    when = _START
    step = timedelta(days=_SPAN_DAYS / (BASE_REVISIONS + 2 * VANDAL_PAIRS))
    out: list[SyntheticRevision] = []
    for k, (lead, text) in enumerate(states):
        when += timedelta(seconds=int(step.total_seconds() * rng.uniform(0.2, 1.8)))
        user = f"Editor{rng.randrange(1, 9)}"
        out.append(SyntheticRevision(when, text, lead, user, f"expand ({k})", k % 7 == 3, False))
        kind = vandal_at.get(k)
        if kind is None:
            continue
        vandal_lead, vandal_text = _vandalise(kind, lead, text, early)
        when += timedelta(minutes=rng.randrange(2, 90))
        ip = f"192.0.2.{rng.randrange(1, 250)}"
        out.append(SyntheticRevision(when, vandal_text, vandal_lead, ip, "", False, True))
        when += timedelta(minutes=rng.randrange(1, 30))
        undo = f"Reverted edits by [[Special:Contributions/{ip}|{ip}]] to last version by {user}"
        out.append(SyntheticRevision(when, text, lead, "Patroller", undo, True, False))
    return out


def _vandalise(kind: str, lead: str, text: str, early: str) -> tuple[str, str]:
    if kind == "blank":
        return "", ""
    if kind == "cut-lead":
        return "", text[len(lead) :].lstrip()
    vandal_lead = f"{lead} {early.strip()}"
    return vandal_lead, vandal_lead + text[len(lead) :]


def write_export(history: SyntheticHistory, path: Path) -> None:
    """Write the history as a MediaWiki export (schema 0.10) that importDump.php reads."""
    with path.open("w", encoding="utf-8") as out:
        out.write('<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10">\n')
        out.write(f"<page><title>{escape(history.title)}</title><ns>0</ns><id>1</id>\n")
        for number, rev in enumerate(history.revisions, start=1):
            kind = "ip" if rev.user[0].isdigit() else "username"
            contributor = f"<{kind}>{escape(rev.user)}</{kind}>"
            stamp = rev.timestamp.strftime("%Y-%m-%dT%H:%M:%SZ")
            out.write(
                f"<revision><id>{number}</id><timestamp>{stamp}</timestamp>"
                f"<contributor>{contributor}</contributor>{'<minor/>' if rev.minor else ''}"
                f"<comment>{escape(rev.comment)}</comment><model>wikitext</model>"
                f'<format>text/x-wiki</format><text xml:space="preserve">{escape(rev.text)}'
                "</text></revision>\n"
            )
        out.write("</page>\n</mediawiki>\n")
