"""A local Web Push endpoint for tests: it plays the push service and the browser both.

Each subscription it hands out has its own P-256 key pair and auth secret, as a
browser's does; a message POSTed to the subscription's endpoint is decrypted
(``aes128gcm``, RFC 8291) with that private key and secret, exactly as the browser
would, and kept with the VAPID ``Authorization`` header's claims. An endpoint under
``/gone/`` answers 410, as a push service does for a subscription that no longer exists.
"""

from __future__ import annotations

import base64
import json
import secrets
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    """One push as the browser would get it."""

    name: str
    payload: dict[str, Any]
    ttl: str | None
    vapid_key: str  # the k= of the Authorization header: the server's public key
    claims: dict[str, Any]  # the JWT's claims (aud, exp, sub)


class PushEndpoint:
    """``with PushEndpoint() as push:`` a push service on 127.0.0.1."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.gone_hits = 0
        self.errors: list[str] = []
        self._keys: dict[str, tuple[ec.EllipticCurvePrivateKey, bytes]] = {}
        self._lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                try:
                    status = outer._handle(self.path, body, headers)
                except Exception as exc:  # kept for the test to see, answered 400
                    outer.errors.append(repr(exc))
                    status = 400
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> PushEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscription(self, name: str, gone: bool = False) -> dict[str, Any]:
        """A new subscription, as ``PushSubscription.toJSON()`` gives it."""
        key = ec.generate_private_key(ec.SECP256R1())
        auth = secrets.token_bytes(16)
        self._keys[name] = (key, auth)
        public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {
            "endpoint": f"{self.url}/{'gone' if gone else 'push'}/{name}",
            "expirationTime": None,
            "keys": {"p256dh": b64url(public), "auth": b64url(auth)},
        }

    def for_(self, name: str) -> list[Received]:
        with self._lock:
            return [r for r in self.received if r.name == name]

    def _handle(self, path: str, body: bytes, headers: dict[str, str]) -> int:
        kind, _, name = path.strip("/").partition("/")
        if kind == "gone":
            with self._lock:
                self.gone_hits += 1
            return 410
        key, auth = self._keys[name]
        assert headers.get("content-encoding") == "aes128gcm", headers
        plain = http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm")
        scheme, _, params = headers.get("authorization", "").partition(" ")
        assert scheme == "vapid", headers
        fields = dict(p.strip().split("=", 1) for p in params.split(","))
        claims = json.loads(unb64url(fields["t"].split(".")[1]))
        with self._lock:
            self.received.append(
                Received(name, json.loads(plain), headers.get("ttl"), fields["k"], claims)
            )
        return 201
