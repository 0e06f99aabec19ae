"""When the REST service makes a classification within a request, and how many of the
builds it makes for requests the store keeps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from kgdiff.temporal.served_builds import serving_requests

T = TypeVar("T")


@dataclass(frozen=True)
class BuildLimits:
    """When a classification is made within a request: at most ``sync_statements``
    statements read (the snapshots' counts) and done within ``wait_seconds``; and how many
    builds made for requests the store keeps (``max_builds``, least recently used out)."""

    sync_statements: int = 5_000_000
    wait_seconds: float = 20.0
    max_builds: int = 32

    def made_for_requests(self, work: Callable[[], T]) -> T:
        """``work``'s result, its builds made as a request's (marked, and evicting the
        least recently used past ``max_builds``: :mod:`kgdiff.temporal.served_builds`)."""
        with serving_requests(self.max_builds):
            return work()
