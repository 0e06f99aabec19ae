"""Columns of the tables the commands print, readable at 80 columns.

rich fits a table to the terminal by narrowing the columns that may wrap, then, if that is
not enough, every column, cutting what no longer fits (``wd-2013-…``, ``outdated_…``). A name,
a date or a figure is therefore never wrapped (``no_wrap``), its header of several words set
on several lines so that it is no wider than the values, and prose takes what is left.
"""

from __future__ import annotations

from rich.table import Column


def figure(header: str) -> Column:
    """A column of numbers (counts, rates), right-aligned, whole."""
    return Column(_stacked(header), justify="right", no_wrap=True)


def key(header: str) -> Column:
    """A column of names, ids or dates, whole."""
    return Column(_stacked(header), no_wrap=True)


def prose(header: str) -> Column:
    """A column of text, wrapped at its words (a long word, a path, folded)."""
    return Column(header, overflow="fold")


def _stacked(header: str) -> str:
    """A header's words one per line (``outdated rate``: two lines of 8 and 4)."""
    return "\n".join(header.split())
