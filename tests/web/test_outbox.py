"""A connection's outbox and its one writer: every message sent in order with ``ws.send``, a client
that stops reading dropped rather than waited for, and a close sent after what was queued."""

from __future__ import annotations

import threading
import time

from simple_websocket import ConnectionClosed

from wibble.web.connection import Connections, Outbox, Writer


class FakeWebsocket:
    """What the writer uses of flask-sock's ``ws``: ``send`` and ``close``."""

    def __init__(self, fail_after: int | None = None, block: threading.Event | None = None) -> None:
        self.sent: list[str] = []
        self.closed: tuple[int, str] | None = None
        self.fail_after = fail_after
        self.block = block

    def send(self, message: str) -> None:
        if self.block is not None:
            self.block.wait()
        if self.fail_after is not None and len(self.sent) >= self.fail_after:
            raise ConnectionClosed(1006, "gone")
        self.sent.append(message)

    def close(self, reason: int | None = None, message: str | None = None) -> None:
        self.closed = (reason or 1000, message or "")


def started(ws: FakeWebsocket, outbox: Outbox) -> tuple[Writer, threading.Thread]:
    writer = Writer(ws, outbox)
    thread = threading.Thread(target=writer.run, daemon=True)
    thread.start()
    return writer, thread


def test_messages_put_from_anywhere_are_sent_in_order_each_its_own_message() -> None:
    ws, outbox = FakeWebsocket(), Outbox(100, lambda: None)
    writer, thread = started(ws, outbox)
    messages = ['{"type":"word","word":"ÉTÉ"}', '{"type":"board","changed":[]}', "y" * 300]
    for message in messages:
        outbox.put(message)
    deadline = time.monotonic() + 5
    while len(ws.sent) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    writer.handler_finished()
    thread.join(5)
    assert ws.sent == messages
    assert ws.closed is None  # the client left first: no close frame after it


def test_a_full_outbox_drops_the_client_and_hangs_up() -> None:
    hung_up: list[bool] = []
    outbox = Outbox(2, lambda: hung_up.append(True))
    for message in "abc":
        outbox.put(message)
    assert (outbox.alive, hung_up, len(outbox)) == (False, [True], 0)
    outbox.put("d")
    assert len(outbox) == 0


def test_a_failed_send_ends_the_writer_and_nothing_more_is_sent() -> None:
    ws, outbox = FakeWebsocket(fail_after=1), Outbox(100, lambda: None)
    for message in "abc":
        outbox.put(message)
    _, thread = started(ws, outbox)
    thread.join(5)
    assert not thread.is_alive()
    assert (ws.sent, outbox.alive, ws.closed) == (["a"], False, None)


def test_a_close_goes_out_after_what_was_queued_and_a_silent_client_is_hung_up_on() -> None:
    hung_up: list[bool] = []
    ws, outbox = FakeWebsocket(), Outbox(100, lambda: hung_up.append(True))
    outbox.put("a")
    outbox.put("b")
    outbox.close(1012)
    _, thread = started(ws, outbox)
    thread.join(5)  # LINGER_SECONDS for the client's close, which never comes
    assert ws.sent == ["a", "b"]
    assert ws.closed == (1012, "server restarting")
    assert hung_up == [True]


def test_a_send_blocked_past_the_send_timeout_is_found_and_dropped() -> None:
    hung_up: list[bool] = []
    release = threading.Event()
    ws, outbox = FakeWebsocket(block=release), Outbox(100, lambda: (hung_up.append(True), release.set()))
    connections = Connections(send_timeout=0.2)
    writer, thread = started(ws, outbox)
    connections.add(writer, outbox)
    outbox.put("never read")
    time.sleep(0.05)
    assert connections.stuck(time.monotonic()) == []  # sending, but not for long yet
    time.sleep(0.4)
    assert connections.stuck(time.monotonic()) == [outbox]
    deadline = time.monotonic() + 5  # the watch, once a second, hangs up on it
    while not hung_up and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hung_up
    assert not outbox.alive
    thread.join(5)
    assert not thread.is_alive()
