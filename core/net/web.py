"""The HTTP side of the game server's one port: the page a browser plays from, and the gate every
connection passes before it may become a WebSocket.

The server is handed the page's files (:class:`PageFiles`: a fixed set, read once at start, by the
floor that draws the games); it serves exactly those at their paths with ``GET``, answers 404 to any
other path and 405 to any other method, and draws no game's picture itself.  Each page carries a
content security policy that lets it load only its own files and talk only to its own socket.

A WebSocket opened by a browser carries an ``Origin`` header, which must be this host's own origin
(the page served from here): another site open in the same browser cannot play a seat.  The
terminal client sends no ``Origin`` and is admitted as before.  The ``Host`` a request names must be
an address (an IP or ``localhost``), not a domain name, so that a name made to point at this machine
(DNS rebinding) cannot pass as this host's origin.
"""

from __future__ import annotations

import email.utils
import http
import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

#: the content type of each kind of file the page is made of
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
}
#: the host part of a ``Host`` header: a name of letters, digits, dots and dashes, or a bracketed IPv6
_HOST = re.compile(r"(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]{1,253})(:\d{1,5})?")


@dataclass(frozen=True)
class PageFiles:
    """The page's files by the path they are served at (``/`` is the page itself), contents read once."""

    files: Mapping[str, bytes] = field(default_factory=dict)

    @classmethod
    def read(cls, folder: Path, names: list[str], index: str = "index.html") -> PageFiles:
        """``names`` from ``folder``, each served at ``/NAME``, and ``index`` at ``/`` too; OSError if
        one cannot be read (a broken install)."""
        files = {f"/{name}": (folder / name).read_bytes() for name in names}
        files["/"] = files[f"/{index}"]
        return cls(files)

    def content_type(self, path: str) -> str:
        return CONTENT_TYPES.get(Path(path).suffix, "text/html; charset=utf-8")


def host_allowed(host: str) -> bool:
    """Whether a ``Host`` header names this server by an address: an IP literal or ``localhost``
    (with a port or not), never a domain name."""
    found = _HOST.fullmatch(host)
    if found is None:
        return False
    name = found.group(1)
    if name.lower() == "localhost":
        return True
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True


def content_policy(host: str) -> str:
    """The content security policy of a page served to ``host``: its own scripts, styles and images,
    its own socket, nothing else (no inline code, no frames, no forms sent elsewhere)."""
    return (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        f"connect-src 'self' ws://{host}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )


def _response(status: http.HTTPStatus, body: bytes, content_type: str, extra: list[tuple[str, str]]) -> Response:
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Length", str(len(body))),
            ("Content-Type", content_type),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-store"),
            *extra,
        ]
    )
    return Response(status.value, status.phrase, headers, body)


def text_response(status: http.HTTPStatus, text: str, extra: list[tuple[str, str]] | None = None) -> Response:
    return _response(status, text.encode(), "text/plain; charset=utf-8", extra or [])


def is_upgrade(request: Request) -> bool:
    """Whether the request asks to become a WebSocket (anything else is a request for a file)."""
    return "websocket" in request.headers.get("Upgrade", "").lower()


@dataclass(frozen=True)
class Gate:
    """The ``process_request`` hook of the game server: the page's files, and the Origin check."""

    page: PageFiles = field(default_factory=PageFiles)

    def __call__(self, conn: ServerConnection, request: Request) -> Response | None:
        """None: let the WebSocket handshake go on; else the HTTP response to send instead."""
        try:
            hosts = request.headers.get_all("Host")
            origins = request.headers.get_all("Origin")
        except UnicodeError:
            return text_response(http.HTTPStatus.BAD_REQUEST, "The request's headers are not ASCII.\n")
        if len(hosts) != 1 or not host_allowed(hosts[0]):
            return text_response(
                http.HTTPStatus.BAD_REQUEST,
                "Open this game at the address the host printed (an IP address or localhost, with the port).\n",
            )
        host = hosts[0]
        if is_upgrade(request):
            return self.socket(host, origins)
        return self.file(request, host)

    def socket(self, host: str, origins: list[str]) -> Response | None:
        """A WebSocket: admitted without an Origin (the terminal client) or from this host's own page."""
        if not origins:
            return None
        if len(origins) == 1 and origins[0] == f"http://{host}":
            return None
        return text_response(
            http.HTTPStatus.FORBIDDEN,
            "Only this host's own page may connect from a browser; open the link it printed.\n",
        )

    def file(self, request: Request, host: str) -> Response:
        if request.method != "GET":
            return text_response(http.HTTPStatus.METHOD_NOT_ALLOWED, "Only GET is served here.\n", [("Allow", "GET")])
        path = request.path.split("?", 1)[0]
        body = self.page.files.get(path)
        if body is None:
            return text_response(http.HTTPStatus.NOT_FOUND, "Not found: the game's page is at /.\n")
        return _response(
            http.HTTPStatus.OK,
            body,
            self.page.content_type(path),
            [("Content-Security-Policy", content_policy(host)), ("X-Frame-Options", "DENY")],
        )
