"""Wikitext → plain text: the fast scanner, its lead-only path and mwparserfromhell, side by side.

Run with ``.venv/bin/python -m bench.text_bench [--repeat N]``. Reads the articles of the
real enwiki sample (``tests/data/wikipedia``) and prints, per converter, MB/s of wikitext
on one core and the ratio to mwparserfromhell. The issue's full benchmark (≥ 1 GB of
generated pages-articles XML) is still to be built; this measures the converters alone.
"""

from __future__ import annotations

import argparse
import bz2
import time
from collections.abc import Callable
from pathlib import Path

from kgdiff.readers.mediawiki_xml import iter_revisions
from kgdiff.text.exact import exact_plain_text
from kgdiff.text.fast import plain_text
from kgdiff.text.sections import lead_text

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "wikipedia"
SAMPLE = DATA / "enwiki-latest-pages-articles1.xml-p000000010p000030302-shortened.bz2"


def articles() -> list[str]:
    """Wikitext of the sample's articles (namespace 0, not redirects)."""
    with bz2.open(SAMPLE, "rb") as handle:
        revisions = list(iter_revisions(handle))
    return [r.text for r in revisions if r.page.ns == 0 and r.page.redirect is None and r.text]


def rate(convert: Callable[[str], str], texts: list[str], repeat: int) -> float:
    """MB of wikitext per second (best of ``repeat`` passes)."""
    size = sum(len(text.encode()) for text in texts)
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for text in texts:
            convert(text)
        best = min(best, time.perf_counter() - started)
    return size / best / 1e6


def main() -> None:
    """Print one line per converter."""
    parser = argparse.ArgumentParser(prog="python -m bench.text_bench")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    texts = articles()
    size = sum(len(text.encode()) for text in texts) / 1e6
    print(f"{len(texts)} articles, {size:.1f} MB of wikitext")
    exact = rate(exact_plain_text, texts, 1)
    for name, convert, repeat in (
        ("mwparserfromhell (exact)", exact_plain_text, 0),
        ("fast, whole page", plain_text, args.repeat),
        ("fast, lead only", lead_text, args.repeat),
    ):
        mbps = exact if repeat == 0 else rate(convert, texts, repeat)
        print(f"{name:26s} {mbps:8.1f} MB/s  {mbps / exact:6.1f}x")


if __name__ == "__main__":
    main()
