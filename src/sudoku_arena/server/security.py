"""Security headers on every response, and the client's address for rate limits.

:class:`SecurityHeaders` adds :data:`HEADERS` to every HTTP response (pages, the API,
scripts, errors) that did not set its own: a response with a policy of its own (the
printable sheets) keeps it. The content security policy lets the pages run only the
scripts the server ships (``script-src 'self'``: no inline script, no ``eval``, no
other origin), load nothing from elsewhere, and be framed by nobody. Inline ``style``
attributes stay allowed (``style-src-attr``): the games' SVG boards set a cursor with
them; ``<style>`` elements do not. The API's own documentation page (``/api/docs``)
is the one page with inline script (the documentation viewer starts from it), so it has
:data:`DOCS_POLICY`; it shows no user's text.
"""

from __future__ import annotations

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The content security policy of every page.
POLICY = (
    "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'; img-src 'self' data:; "
    "style-src 'self'; style-src-attr 'unsafe-inline'; connect-src 'self'"
)
#: The policy of the API's documentation page (its viewer starts from an inline script).
DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; connect-src 'self'"
)
#: Added to every response that does not set them itself.
HEADERS: dict[str, str] = {
    "content-security-policy": POLICY,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
}


class SecurityHeaders:
    """ASGI middleware: :data:`HEADERS` on every HTTP response (WebSockets untouched)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = dict(HEADERS)
        if scope.get("path") == "/api/docs":
            extra["content-security-policy"] = DOCS_POLICY

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {name.lower() for name, _ in headers}
                for name, value in extra.items():
                    if name.encode() not in have:
                        headers.append((name.encode(), value.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def client_ip(conn: HTTPConnection | Scope) -> str:
    """The address a request came from, as the rate limits count it.

    This is the TCP peer. Behind a reverse proxy every request would seem to come from
    the proxy: run uvicorn with ``--proxy-headers`` (and ``--forwarded-allow-ips`` set
    to the proxy's address), which puts the client's address from ``X-Forwarded-For``
    here. Never trust that header from anybody but the proxy.
    """
    client = conn.client if isinstance(conn, HTTPConnection) else conn.get("client")
    if client is None:
        return "unknown"
    return str(client[0])
