"""ETags derived from the store's snapshots, and ``304 Not Modified`` for ``If-None-Match``.

An answer depends only on the store (its snapshots, evidence and kgdiff's version: the
fingerprint of :mod:`kgdiff.query.store_state`), the URL and the representation asked for.
So the tag is known before any work is done, and a client revalidating an answer it holds
gets its 304 without the question being asked again. Job states (``/v1/jobs``) change on
their own and carry no tag.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from urllib.parse import parse_qsl, urlencode

import anyio.to_thread
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

TAGGED_PREFIX = "/v1/"
UNTAGGED_PREFIXES = ("/v1/jobs", "/v1/sql")


def etag_for(store_tag: str, path: str, query: bytes, accept: str) -> str:
    """The strong ETag of the answer at ``path?query`` as ``accept`` asks for it."""
    canonical = urlencode(sorted(parse_qsl(query.decode("latin-1"), keep_blank_values=True)))
    variant = "ndjson" if "application/x-ndjson" in accept else "json"
    digest = hashlib.sha256(f"{store_tag}\n{path}\n{canonical}\n{variant}".encode())
    return f'"{digest.hexdigest()[:32]}"'


def matches(if_none_match: str, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (weak comparison, as for GET) or is ``*``."""
    candidates = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return "*" in candidates or etag in candidates


class ETagMiddleware:
    """Tags the 200 answers of ``GET /v1/…`` and answers a matching ``If-None-Match`` with
    304; ``store_tag`` gives the store's fingerprint (it may query the catalog, so it runs
    in a worker thread), ``known_tag`` gives it when it is known without a query (else
    None)."""

    def __init__(
        self,
        app: ASGIApp,
        store_tag: Callable[[], str],
        known_tag: Callable[[], str | None] = lambda: None,
    ) -> None:
        self.app = app
        self.store_tag = store_tag
        self.known_tag = known_tag

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or scope["method"] not in ("GET", "HEAD")
            or not path.startswith(TAGGED_PREFIX)
            or path.startswith(UNTAGGED_PREFIXES)
        ):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        try:  # the fingerprint known (a stat says the store is unchanged): no thread hop
            tag = self.known_tag()
            if tag is None:
                tag = await anyio.to_thread.run_sync(self.store_tag)
        except Exception:  # the route answers for an unreadable store
            await self.app(scope, receive, send)
            return
        etag = etag_for(tag, path, scope.get("query_string", b""), headers.get("accept", ""))
        if matches(headers.get("if-none-match", ""), etag):
            await _not_modified(send, etag)
            return
        await self.app(scope, receive, _tagging(send, etag))


async def _not_modified(send: Send, etag: str) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": 304,
            "headers": [(b"etag", etag.encode()), (b"cache-control", b"no-cache")],
        }
    )
    await send({"type": "http.response.body", "body": b""})


def _tagging(send: Send, etag: str) -> Send:
    """``send`` adding the ETag (and ``Cache-Control: no-cache``: revalidate) to a 200."""

    async def tagged(message: Message) -> None:
        if message["type"] == "http.response.start" and message["status"] == 200:
            extra = [(b"etag", etag.encode()), (b"cache-control", b"no-cache")]
            message = {**message, "headers": [*message.get("headers", []), *extra]}
        await send(message)

    return tagged
