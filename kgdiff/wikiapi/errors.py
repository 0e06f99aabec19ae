"""Errors of the MediaWiki API client, each one line naming the wiki and the page."""

from __future__ import annotations

from kgdiff.errors import KgdiffError


class WikiApiError(KgdiffError):
    """The wiki's API refused a request, answered nonsense or could not be reached."""

    exit_code = 3


class RequestBudgetError(WikiApiError):
    """The run made as many API requests as its budget allows (like ``--max-rejects``)."""

    exit_code = 4
