"""``kgdiff page``: a wiki page as of a date, through the API."""

from __future__ import annotations

from datetime import datetime, time
from typing import Annotated

import typer

from kgdiff.cli.common import console, parse_day
from kgdiff.errors import InputError
from kgdiff.text.fast import plain_text
from kgdiff.text.sections import lead_wikitext
from kgdiff.wikiapi.client import WikiClient
from kgdiff.wikiapi.revisions import revision_at


def page_command(
    title: Annotated[str, typer.Argument(help="Page title, e.g. 'Albert Einstein'.")],
    date: Annotated[str, typer.Option("--date", help="The page as of the end of this day.")],
    api: Annotated[
        str, typer.Option("--api", help="The wiki's api.php URL.")
    ] = "https://en.wikipedia.org/w/api.php",
    lead: Annotated[bool, typer.Option("--lead", help="Only the lead section.")] = False,
    wikitext: Annotated[bool, typer.Option("--wikitext", help="Wikitext, not plain text.")] = False,
) -> None:
    """The revision of a page in force at a date (one API request), and its text."""
    day = parse_day(date, "--date")
    client = WikiClient.from_api_url(api)
    revision = revision_at(client, title, datetime.combine(day, time(23, 59, 59)))
    if revision is None:
        raise InputError(f"{api}: no page {title!r} existed on {day}; check the title")
    meta = revision.meta
    redirect = f" (redirected from {revision.redirected_from})" if revision.redirected_from else ""
    when = f"{meta.timestamp:%Y-%m-%d %H:%M} UTC"
    console.print(f"[bold]{revision.title}[/]{redirect}: revision {meta.revid} of {when}")
    text = revision.text
    if text is None:
        console.print("(the text of this revision is hidden)")
        return
    text = lead_wikitext(text) if lead else text
    console.print(text if wikitext else plain_text(text), highlight=False, markup=False)
