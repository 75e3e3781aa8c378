"""Plain HTTP that one address could use to hold the server's connections, over real sockets
against a real server: request bodies nothing here reads, trickled slowly, and more
connections at once from one address than any browser opens."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack
from urllib.parse import urlsplit

import pytest

from tests.support import Client, LiveServer

# The audit's request: a body announced as 100 MB, then trickled a byte at a time.
HUGE = 100_000_000


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    # The handshake timeout is the default's 10 s, so a test that ends sooner than that shows
    # the server let go of the connection by itself, not because the request took too long.
    server = LiveServer("--data-dir", "", env={"WIBBLE_HANDSHAKE_TIMEOUT": "10"})
    yield server
    server.stop()


def connect(server: LiveServer) -> socket.socket:
    address = urlsplit(server.url)
    assert address.hostname is not None
    assert address.port is not None
    return socket.create_connection((address.hostname, address.port), timeout=10)


def answer_and_close(sock: socket.socket, trickle: bytes = b"") -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that took.

    ``trickle``: a byte of body sent every 0.2 s meanwhile, as a slow client would; the server
    may close while we write, which is just as good as closing while we read.
    """
    started = time.monotonic()
    received = b""
    sock.settimeout(0.2)
    while time.monotonic() - started < 8:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            if trickle:
                try:
                    sock.sendall(trickle)
                except OSError:
                    break
            continue
        except OSError:  # reset: the server closed with our body bytes unread
            break
        if not chunk:
            break
        received += chunk
    else:
        pytest.fail(f"the connection was still open after 8 s; received {received[:200]!r}")
    return received, time.monotonic() - started


@pytest.mark.parametrize(
    "head",
    [
        f"POST /games/x/record HTTP/1.1\r\nHost: localhost\r\nContent-Length: {HUGE}\r\n\r\n",
        f"GET /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: {HUGE}\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n",
        f"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        f"Content-Length: {HUGE}\r\n\r\n",
    ],
    ids=["post-record", "get-with-body", "chunked", "websocket-with-body"],
)
def test_a_request_with_a_body_is_refused_at_once_and_the_connection_closed(
    server: LiveServer, head: str
) -> None:
    """No route takes a body: one is refused (413) before a byte of it is read, instead of the
    connection being held while a 100 MB body trickles in (the audit held 960 of 1,000)."""
    with connect(server) as sock:
        sock.sendall(head.encode() + b"x")
        answer, seconds = answer_and_close(sock, trickle=b"x")
    assert answer.startswith(b"HTTP/1.1 413 "), answer
    assert seconds < 5
    assert "Traceback" not in "".join(server.output)


def test_headers_the_parser_gives_up_on_are_a_bad_request_not_a_traceback_each(server: LiveServer) -> None:
    """Over 100 headers: 400, and nothing in the log a client could fill by sending it again."""
    headers = "".join(f"X-Many-{n}: {n}\r\n" for n in range(101))
    for _ in range(3):
        with connect(server) as sock:
            sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: localhost\r\n{headers}\r\n".encode())
            answer, _ = answer_and_close(sock)
        assert answer.startswith(b"HTTP/1.1 400 "), answer
    assert "Traceback" not in "".join(server.output)
    assert "more than 100" not in "".join(server.output)


def test_an_empty_body_is_no_body(server: LiveServer) -> None:
    with connect(server) as sock:
        sock.sendall(
            b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        )
        answer, _ = answer_and_close(sock)
    assert answer.startswith(b"HTTP/1.1 200 "), answer
    assert b'"ok":true' in answer.replace(b" ", b"")


def healthz(server: LiveServer) -> bytes:
    with connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        return answer_and_close(sock)[0]


def test_one_address_holds_at_most_its_share_of_plain_http_connections() -> None:
    """Past HTTP_CONNECTIONS_PER_ADDRESS open at once, a new connection is told 429 and closed;
    one that closes frees its place, and a websocket once open no longer counts (those have
    their own cap, MAX_CONNECTIONS_PER_ADDRESS)."""
    env = {"WIBBLE_HTTP_CONNECTIONS_PER_ADDRESS": "3", "WIBBLE_HANDSHAKE_TIMEOUT": "30"}
    server = LiveServer("--data-dir", "", env=env)
    try:
        with ExitStack() as held:
            idle = [held.enter_context(connect(server)) for _ in range(3)]  # sending nothing
            for sock in idle:  # each is being served: it is answered once it sends a request
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
                sock.settimeout(10)
                assert sock.recv(12) == b"HTTP/1.1 200"
            answer = healthz(server)
            assert answer.startswith(b"HTTP/1.1 429 "), answer

            idle.pop().close()
            deadline = time.monotonic() + 10  # the server notices the close in its own time
            while (answer := healthz(server)).startswith(b"HTTP/1.1 429 ") and time.monotonic() < deadline:
                pass
            assert answer.startswith(b"HTTP/1.1 200 "), answer
        # With every plain connection closed, three websockets (upgraded) hold no HTTP place.
        deadline = time.monotonic() + 10
        while (answer := healthz(server)).startswith(b"HTTP/1.1 429 ") and time.monotonic() < deadline:
            pass
        sockets = [Client(server.ws_url) for _ in range(3)]
        try:
            for client in sockets:
                assert client.ask({"type": "new_game"})["type"] == "game"
            assert healthz(server).startswith(b"HTTP/1.1 200 ")
        finally:
            for client in sockets:
                client.close()
    finally:
        server.stop()
    assert "Traceback" not in "".join(server.output)
