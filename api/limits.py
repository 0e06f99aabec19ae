"""Limits on what a request may send, enforced before any route reads it: the URL's length
(414) and the body's size (413), both answered as problems.

A route that takes a body (``POST /v1/sql``) reads it whole before it can check it, so a
client sending 400 MB would make the worker hold 400 MB first. This middleware answers
before that: a ``Content-Length`` over the limit is refused before a byte of the body is
read; a body without one (``Transfer-Encoding: chunked``) is read up to the limit, held
(it is small), and handed to the route, or refused as soon as it passes the limit. A refused
body is never read further: the answer carries ``Connection: close``, and the server drops
the connection. The URL limit also bounds how many query parameters a request can carry.
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.problems import problem

DEFAULT_MAX_BODY = 64 * 1024
"""Bytes a request's body may hold (``--max-body``): a SQL query is a few hundred."""
DEFAULT_MAX_URL = 8 * 1024
"""Bytes a request's path and query string may hold together (``--max-url``)."""


@dataclass(frozen=True)
class RequestLimits:
    """The most bytes a request's body and its URL (path and query string) may hold."""

    max_body: int = DEFAULT_MAX_BODY
    max_url: int = DEFAULT_MAX_URL


Refusal = tuple[int, str, str, str]
"""A refused request's status, problem type, title and detail."""


class BodyTooLargeError(Exception):
    """A body past the limit (raised inside the middleware only)."""


class RequestLimitsMiddleware:
    """Answers 414 to a URL over ``limits.max_url`` and 413 to a body over
    ``limits.max_body`` before the application reads either (see the module)."""

    def __init__(self, app: ASGIApp, limits: RequestLimits) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self._refusal(scope, headers.get("content-length"))
        if refusal is not None:
            await _refuse(send, scope["path"], refusal)
            return
        if "content-length" in headers or "transfer-encoding" not in headers:
            await self.app(scope, receive, send)  # a body of a known length, or none
            return
        try:
            body = await self._read_within_limit(receive)
        except BodyTooLargeError:
            await _refuse(send, scope["path"], self._body_refusal())
            return
        await self.app(scope, _replay(body, receive), send)

    def _refusal(self, scope: Scope, declared: str | None) -> Refusal | None:
        """Why the request is refused before its body is read (None: it is not)."""
        path = scope.get("raw_path") or scope["path"].encode()
        url_bytes = len(path) + len(scope.get("query_string", b""))
        if url_bytes > self.limits.max_url:
            detail = (
                f"the request's URL holds {url_bytes:,} bytes, more than this service takes"
                f" ({self.limits.max_url:,}, kgdiff serve --max-url); ask with fewer or"
                " shorter parameters"
            )
            return 414, "uri-too-long", "URI too long", detail
        if declared is not None and declared.isdigit() and int(declared) > self.limits.max_body:
            return self._body_refusal()
        return None

    async def _read_within_limit(self, receive: Receive) -> Message:
        """The whole body of a request that did not say its length, read until it ends or
        passes the limit (:class:`BodyTooLargeError`); a disconnect is handed on as it came."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return message
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limits.max_body:
                raise BodyTooLargeError
            chunks.append(chunk)
            if not message.get("more_body", False):
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}

    def _body_refusal(self) -> Refusal:
        detail = (
            f"the request's body is larger than this service takes ({self.limits.max_body:,}"
            " bytes, kgdiff serve --max-body); send a smaller one"
        )
        return 413, "body-too-large", "Body too large", detail


def _replay(body: Message, receive: Receive) -> Receive:
    """``receive`` that first gives the body already read, then what the server sends."""
    pending = [body]

    async def replayed() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return replayed


async def _refuse(send: Send, path: str, refusal: Refusal) -> None:
    """Answer the problem ``refusal`` about the request for ``path``, and have the server
    close the connection (the rest of the request is never read)."""
    status, slug, title, detail = refusal
    response = problem(status, slug, title, detail, instance=path)
    response.headers["Connection"] = "close"
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": response.body})
