"""Text the service sends without the machine's paths: the store's folder, wherever a
message of kgdiff names it (``no history snapshot of enwiki in /srv/data/kgdiff``), is
written ``STORE`` as the documentation writes it. A client learns what to do, not where
the server keeps its files."""

from __future__ import annotations

from pathlib import Path

STORE = "STORE"


def store_spellings(root: Path) -> list[str]:
    """The ways a message may spell the store's folder (as given, absolute, resolved),
    longest first so that one is not replaced inside another."""
    spellings = {str(root), str(root.absolute()), str(root.resolve())}
    return sorted((s for s in spellings if s not in ("", "/")), key=len, reverse=True)


def public_text(text: str, root: Path) -> str:
    """``text`` with the store's folder written ``STORE``."""
    for spelling in store_spellings(root):
        text = text.replace(spelling, STORE)
    return text
