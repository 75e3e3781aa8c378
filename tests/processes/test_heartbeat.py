"""The heartbeat over a real socket (docs/protocol.md, "Heartbeat"): a connection the server hears
no message from for SILENCE_TIMEOUT seconds is closed with 1008; a `ping` message is answered with
a `pong` and keeps it open; websocket ping frames get the library's pongs but keep nothing open."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from websocket import ABNF, WebSocketTimeoutException

from tests.support import Client, LiveServer

POLICY_VIOLATION = 1008
SILENCE = 2.0  # WIBBLE_SILENCE_TIMEOUT for the quick server
# The close comes SILENCE seconds after the server's last read; this much later still passes
# (a loaded 2-core machine), while a server that never closes fails long before 30 s.
LATE = 3.0
PING_EVERY = 0.5


@pytest.fixture(scope="module")
def quick_server() -> Iterator[LiveServer]:
    server = LiveServer(env={"WIBBLE_SILENCE_TIMEOUT": str(SILENCE)})
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def opened() -> Iterator[list[Client]]:
    """Clients a test opened, shut at the end whatever became of them."""
    clients: list[Client] = []
    yield clients
    for client in clients:
        try:
            client.close()
        except Exception:
            pass


def connect(server: LiveServer, opened: list[Client]) -> Client:
    client = Client(server.ws_url)
    opened.append(client)
    return client


def next_frame(client: Client, deadline: float) -> ABNF | None:
    """The next frame, raw (a close frame is not answered, pings not swallowed); None at the deadline."""
    client.ws.settimeout(max(0.01, deadline - time.monotonic()))
    try:
        return client.ws.recv_frame()
    except WebSocketTimeoutException:
        return None


def close_code_of(frame: ABNF) -> int:
    assert frame.opcode == ABNF.OPCODE_CLOSE, frame
    assert len(frame.data) >= 2, frame.data
    return int.from_bytes(frame.data[:2], "big")


def ask_ping(client: Client, within: float = 5.0) -> None:
    """Send a `ping` message; its `pong` must be the next frame."""
    client.send({"type": "ping"})
    frame = next_frame(client, time.monotonic() + within)
    assert frame is not None, f"no pong within {within} s"
    assert frame.opcode == ABNF.OPCODE_TEXT, f"a {ABNF.OPCODE_MAP.get(frame.opcode)} frame, not a pong"
    assert json.loads(frame.data) == {"type": "pong"}


def test_a_silent_client_is_closed_with_1008_after_the_silence_timeout(
    quick_server: LiveServer, opened: list[Client]
) -> None:
    started = time.monotonic()  # before the handshake: the server's clock starts after this
    client = connect(quick_server, opened)
    connected = time.monotonic()
    frame = next_frame(client, connected + SILENCE + LATE)
    elapsed = time.monotonic() - started
    assert frame is not None, f"still open {SILENCE + LATE:.0f} s after connecting"
    assert close_code_of(frame) == POLICY_VIOLATION
    assert SILENCE <= elapsed, f"closed after {elapsed:.2f} s, before the {SILENCE} s of silence"


def test_ping_messages_keep_a_connection_open_and_each_gets_a_pong(
    quick_server: LiveServer, opened: list[Client]
) -> None:
    client = connect(quick_server, opened)
    started = time.monotonic()
    pongs = 0
    while time.monotonic() - started < 3 * SILENCE:
        ask_ping(client)
        pongs += 1
        time.sleep(PING_EVERY)  # the client's pace: the behaviour under test, not a wait for a condition
    assert pongs >= 6, f"only {pongs} pings in {3 * SILENCE} s"
    # Open after three silence timeouts: still answering, and nothing else arrived meanwhile.
    ask_ping(client)
    assert next_frame(client, time.monotonic() + 0.2) is None


def test_websocket_ping_frames_are_answered_but_do_not_keep_a_connection_open(
    quick_server: LiveServer, opened: list[Client]
) -> None:
    started = time.monotonic()
    client = connect(quick_server, opened)
    connected = time.monotonic()
    deadline = connected + SILENCE + LATE
    pings = pongs = 0
    next_ping = connected
    closed: ABNF | None = None
    while closed is None and time.monotonic() < deadline:
        if time.monotonic() >= next_ping:
            client.ws.ping(f"beat {pings}")
            pings += 1
            next_ping += PING_EVERY
        frame = next_frame(client, min(next_ping, deadline))
        if frame is None:
            continue
        if frame.opcode == ABNF.OPCODE_PONG:
            assert frame.data == f"beat {pongs}".encode(), "pongs carry their ping's data, in order"
            pongs += 1
        elif frame.opcode == ABNF.OPCODE_CLOSE:
            closed = frame
        else:
            pytest.fail(f"unexpected frame: {frame}")
    elapsed = time.monotonic() - started
    assert closed is not None, f"{pings} websocket pings kept the connection open {SILENCE + LATE:.0f} s"
    assert close_code_of(closed) == POLICY_VIOLATION
    assert SILENCE <= elapsed, f"closed after {elapsed:.2f} s, before the {SILENCE} s of silence"
    assert pongs >= 3, f"{pongs} pongs for {pings} websocket pings"


def test_with_the_default_timeout_a_silent_client_stays_open(
    server: LiveServer, opened: list[Client]
) -> None:
    """The default is 30 s: three silent seconds close nothing (the quick server closes after 2)."""
    client = connect(server, opened)
    assert next_frame(client, time.monotonic() + 3.0) is None, "the server sent or closed something"
    ask_ping(client)
