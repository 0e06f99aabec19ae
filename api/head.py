"""``HEAD`` on every ``GET`` route: the route answers as for ``GET`` and the body is left
out, its headers (``Content-Length``, ``ETag``) kept, as RFC 9110 asks. FastAPI's routes
declare the methods they are given only, so without this ``HEAD`` was a 405."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send


class HeadAsGetMiddleware:
    """Hands a ``HEAD`` request on as ``GET`` and sends its answer without the body (a route
    without ``GET`` still answers 405, naming the methods it takes)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # the answer's body goes nowhere; its end is sent once
                message = {"type": "http.response.body", "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)
