"""The HTTP side of the host's one port: the browser's page at ``/`` (its own files only, with a content
security policy), 404 for every other path, 405 for other methods, the Origin check on the socket
(a browser only from this host's own page; the terminal client sends none), and a fuzz of malformed
requests, bounded in count and on the loopback only."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import socket
from collections.abc import Iterator

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from cli.net_cmd import PAGE, page_files, page_link, serve_in_thread
from core.net.limits import BURST, TOO_FAST, MessageRate
from core.net.messages import MAX_CLIENT_MESSAGE, Hello, encode
from core.net.server import GameServer
from core.net.web import host_allowed
from tests.net.conftest import LOOPBACK, code_of, make_table


@contextlib.contextmanager
def page_server(data_dir: object) -> Iterator[tuple[int, str]]:
    """A host serving the page and an Inland Port game (host's seat and a remote one) on the loopback:
    its port and the remote seat's code."""
    table = make_table("inland", "remote,ai:easy", 1)
    server = GameServer(page=page_files())
    server.add(table)
    table.save()
    thread, port = serve_in_thread(server, LOOPBACK, 0)
    try:
        yield port, code_of(table, 0)
    finally:
        server.stop_all("the test is over")
        thread.join(10)


def raw(port: int, request: bytes, *, limit: int = 1 << 20) -> bytes:
    """Send ``request`` as it is and read the answer until the server closes (5 s at most)."""
    with socket.create_connection((LOOPBACK, port), timeout=5) as s:
        s.sendall(request)
        got = b""
        with contextlib.suppress(TimeoutError, ConnectionResetError, BrokenPipeError):
            while len(got) < limit:
                chunk = s.recv(65536)
                if not chunk:
                    break
                got += chunk
    return got


def get(port: int, path: str, method: str = "GET", host: str | None = None) -> tuple[int, dict[str, str], bytes]:
    host = f"{LOOPBACK}:{port}" if host is None else host
    answer = raw(port, f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, body


def test_the_page_and_its_files_are_served_with_a_content_policy(data_dir):
    with page_server(data_dir) as (port, _code):
        status, headers, body = get(port, "/")
        assert status == 200
        assert headers["content-type"].startswith("text/html")
        assert b'<script src="app.js"' in body
        policy = headers["content-security-policy"]
        assert "default-src 'none'" in policy
        assert "script-src 'self'" in policy
        assert f"connect-src 'self' ws://{LOOPBACK}:{port}" in policy
        assert "unsafe-inline" not in policy and "http:" not in policy.replace(f"ws://{LOOPBACK}:{port}", "")
        assert headers["x-content-type-options"] == "nosniff"
        for name in PAGE:
            status, headers, body = get(port, f"/{name}")
            assert status == 200, name
            assert body, name
        assert get(port, "/app.js")[1]["content-type"].startswith("text/javascript")
        assert get(port, "/style.css")[1]["content-type"].startswith("text/css")
        assert get(port, "/?x=1")[0] == 200  # a query string names the same file


def test_the_page_names_nothing_from_elsewhere():
    """No CDN, no font or script from another site: the page works on a LAN without internet."""
    files = page_files().files
    for path, body in files.items():
        text = body.decode()
        assert "http://" not in text.replace("http://www.w3.org/2000/svg", ""), path
        assert "https://" not in text, path
        assert "//cdn" not in text, path


@pytest.mark.parametrize(
    "path",
    [
        "/../pyproject.toml",
        "/..%2f..%2fpyproject.toml",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/.%2e/app.js",
        "//app.js",
        "/app.js/",
        "/index.html/..",
        "/web/app.js",
        "/rules.md",
        "/net_cmd.py",
        "http://example.com/",
        "http://127.0.0.1/app.js",
        "*",
        "/favicon.ico",
        "/%00",
    ],
)
def test_every_other_path_is_not_found(data_dir, path):
    with page_server(data_dir) as (port, _code):
        status, _headers, body = get(port, path)
        assert status == 404, path
        assert b"Not found" in body


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "TRACE", "BREW"])
def test_other_methods_are_not_allowed(data_dir, method):
    with page_server(data_dir) as (port, _code):
        status, headers, _body = get(port, "/", method=method)
        assert status == 405
        assert headers["allow"] == "GET"


@pytest.mark.parametrize("host", ["evil.example:80", "lehavre.example.com:8765", "", "a b"])
def test_a_host_named_by_a_domain_is_refused(data_dir, host):
    """A name made to point at this machine (DNS rebinding) does not pass as this host."""
    with page_server(data_dir) as (port, _code):
        assert get(port, "/", host=host)[0] == 400


def test_host_names_allowed():
    assert host_allowed("127.0.0.1:8765")
    assert host_allowed("localhost:8765")
    assert host_allowed("[::1]:8765")
    assert host_allowed("192.168.1.20")
    assert not host_allowed("example.com:8765")
    assert not host_allowed("127.0.0.1.nip.io:8765")
    assert not host_allowed("")


async def first_answer(port: int, origin: str | None, code: str) -> dict[str, object]:
    headers = {"Origin": origin} if origin is not None else {}
    async with connect(f"ws://{LOOPBACK}:{port}", proxy=None, origin=None, additional_headers=headers) as ws:
        await ws.send(encode(Hello(code=code)))
        return dict(json.loads(await asyncio.wait_for(ws.recv(), 10)))


def test_the_socket_admits_this_hosts_page_and_the_terminal_client_only(data_dir):
    with page_server(data_dir) as (port, code):
        own = f"http://{LOOPBACK}:{port}"
        assert asyncio.run(first_answer(port, own, code))["type"] == "welcome"
        assert asyncio.run(first_answer(port, None, code))["type"] == "welcome"  # the terminal's client
        for other in ["http://evil.example", f"http://localhost:{port}", f"https://{LOOPBACK}:{port}", "null"]:
            with pytest.raises(InvalidStatus) as refused:
                asyncio.run(first_answer(port, other, code))
            assert refused.value.response.status_code == 403, other


def test_a_browsers_messages_meet_the_same_limits(data_dir):
    """A connection from the page is refused a message too long or malformed, as a terminal's is."""

    async def run(port: int, code: str) -> list[str]:
        headers = {"Origin": f"http://{LOOPBACK}:{port}"}
        async with connect(f"ws://{LOOPBACK}:{port}", proxy=None, additional_headers=headers) as ws:
            await ws.send(encode(Hello(code=code)))
            reasons = []
            for bad in ["x" * (MAX_CLIENT_MESSAGE + 1), "{", '{"version": 2, "type": "play", "action": ""}']:
                await ws.send(bad)
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if msg["type"] == "refused":
                        reasons.append(msg["reason"])
                        break
            return reasons

    with page_server(data_dir) as (port, code):
        reasons = asyncio.run(run(port, code))
    assert "at most 4096 are accepted" in reasons[0]
    assert "not JSON" in reasons[1]
    assert "action" in reasons[2]


def fuzz_requests(rng: random.Random, port: int) -> Iterator[bytes]:
    host = f"Host: {LOOPBACK}:{port}\r\n"
    fixed = [
        b"\r\n\r\n",
        b"GET\r\n\r\n",
        b"GET /\r\n\r\n",
        b"GET / HTTP/2.0\r\n\r\n",
        b"GET / HTTP/1.1 extra\r\n\r\n",
        b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\n\r\n",
        ("GET / HTTP/1.1\r\n" + host + "X-Big: " + "b" * 20000 + "\r\n\r\n").encode(),
        ("GET / HTTP/1.1\r\n" + host + "".join(f"X-{i}: {i}\r\n" for i in range(300)) + "\r\n").encode(),
        ("GET / HTTP/1.1\r\n" + host + host + "\r\n").encode(),
        ("POST / HTTP/1.1\r\n" + host + "Content-Length: 5\r\n\r\nhello").encode(),
        ("GET / HTTP/1.1\r\n" + host + "Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n").encode(),
        "GET /é HTTP/1.1\r\n".encode() + host.encode() + b"\r\n",
        b"GET / HTTP/1.1\r\nHost: \xff\xfe\r\n\r\n",
        ("GET / HTTP/1.1\r\n" + host + "Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n").encode(),
        b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03",  # a TLS hello
    ]
    yield from fixed
    for _ in range(40):
        parts = [rng.choice(["GET", "get", "G\x00T", "POST", ""]), rng.choice(["/", "/../", "/%2e%2e/", "//", "?"])]
        line = " ".join(parts) + rng.choice([" HTTP/1.1", " HTTP/1.0", "", " HTTP/9"]) + "\r\n"
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 64)))
        yield line.encode("latin-1") + host.encode() + junk + b"\r\n\r\n"


def test_fuzzed_requests_get_an_answer_or_a_close_and_the_game_goes_on(data_dir):
    """Malformed request lines, huge headers, path tricks and junk: each is answered with an error (or
    the connection closed), nothing is served but the page's files, and the game still welcomes its seat."""
    rng = random.Random(33)
    with page_server(data_dir) as (port, code):
        for request in fuzz_requests(rng, port):
            answer = raw(port, request)
            if answer:
                status = int(answer.split(b" ", 2)[1])
                assert status in (200, 400, 403, 404, 405, 413, 414, 426, 431, 500) and status != 500, answer[:200]
                if status == 200:
                    assert answer.split(b"\r\n\r\n", 1)[1] == page_files().files["/"]
        assert asyncio.run(first_answer(port, None, code))["type"] == "welcome"


def test_the_link_carries_the_code_in_the_fragment():
    assert page_link("127.0.0.1:8765", "abcd-efgh-jkmn") == "http://127.0.0.1:8765/#abcd-efgh-jkmn"


def test_the_message_rate_is_limited_by_a_token_bucket():
    now = [0.0]
    rate = MessageRate(per_second=2.0, burst=3, clock=lambda: now[0])
    assert [rate.allow() for _ in range(4)] == [True, True, True, False]
    now[0] += 1.0  # two more a second
    assert [rate.allow() for _ in range(3)] == [True, True, False]


def test_a_flood_of_messages_is_refused_past_the_limit_and_the_seat_still_plays(data_dir):
    """The same limit for a browser's connection as for a terminal's: the messages past the burst are
    refused (not acted on), and the connection stays."""

    async def run(port: int, code: str) -> list[str]:
        headers = {"Origin": f"http://{LOOPBACK}:{port}"}
        async with connect(f"ws://{LOOPBACK}:{port}", proxy=None, additional_headers=headers) as ws:
            await ws.send(encode(Hello(code=code)))
            for _ in range(BURST * 2):
                await ws.send('{"version": 2, "type": "undo", "ply": 999}')
            reasons: list[str] = []
            while len(reasons) < BURST * 2:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg["type"] == "refused":
                    reasons.append(msg["reason"])
            return reasons

    with page_server(data_dir) as (port, code):
        reasons = asyncio.run(run(port, code))
    assert sum(r == TOO_FAST for r in reasons) >= BURST // 2
    assert any(r != TOO_FAST for r in reasons)
