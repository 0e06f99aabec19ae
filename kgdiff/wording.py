"""Counts as people write them in messages and tables: ``1 group``, ``2 groups``."""

from __future__ import annotations


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``number`` with its noun, singular for one (``plural``: an irregular plural; the
    noun with an ``s`` otherwise): ``1 group``, ``13,152 groups``, ``1 knowledge update``."""
    return f"{number:,} {noun if number == 1 else plural or noun + 's'}"
