"""The MediaWiki Action API: a budgeted, retrying, caching client and revision primitives."""

from kgdiff.wikiapi.client import DEFAULT_USER_AGENT, RetryPolicy, WikiClient
from kgdiff.wikiapi.errors import RequestBudgetError, WikiApiError
from kgdiff.wikiapi.revisions import (
    RevisionInfo,
    RevisionMeta,
    lead_texts,
    revision_at,
    revisions_after,
)

__all__ = [
    "DEFAULT_USER_AGENT",
    "RequestBudgetError",
    "RetryPolicy",
    "RevisionInfo",
    "RevisionMeta",
    "WikiApiError",
    "WikiClient",
    "lead_texts",
    "revision_at",
    "revisions_after",
]
