"""What counts as non-prose in wikitext, shared by the fast and the exact converter."""

from __future__ import annotations

import re

DROPPED_TAGS = frozenset(
    {
        "ref", "references", "gallery", "imagemap", "timeline", "math", "chem", "ce",
        "score", "syntaxhighlight", "source", "pre", "graph", "mapframe",
        "templatedata", "inputbox", "categorytree",
    }
)  # fmt: skip
"""Tags removed with their content (references, media, code, formulas)."""

DROPPED_LINK_PREFIXES = frozenset({"file", "image", "media", "category"})
"""Link namespaces removed with their caption (English names; ``:Category:`` links stay)."""


_INTERLANGUAGE = re.compile(r"[a-z]{2,3}(?:-[a-z]+)*$")


def is_dropped_link(target: str) -> bool:
    """A link that is not prose: a file, image or category, or a link to another language."""
    prefix, colon, _ = target.strip().partition(":")
    if not colon or target.lstrip().startswith(":"):
        return False
    prefix = prefix.strip().lower()
    return prefix in DROPPED_LINK_PREFIXES or bool(_INTERLANGUAGE.match(prefix))
