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


def test_messages_put_from_anywhere_are_sent_in_order_each_its_own_message() -> None:
    ws, outbox = FakeWebsocket(), Outbox(100, lambda: None)
    writer = Writer(ws, outbox)
    messages = ['{"type":"word","word":"ÉTÉ"}', '{"type":"board","changed":[]}', "y" * 300]
    for message in messages:
        outbox.put(message)
    assert writer.join(5)  # sent, and the writer stopped: an idle connection holds none
    assert ws.sent == messages
    outbox.put("later")  # a new writer for the next message
    assert writer.join(5)
    assert ws.sent == [*messages, "later"]
    writer.handler_finished()
    assert ws.closed is None  # the client left first: no close frame after it


def test_many_threads_putting_at_once_lose_nothing_and_keep_each_ones_order() -> None:
    ws, outbox = FakeWebsocket(), Outbox(100_000, lambda: None)
    writer = Writer(ws, outbox)

    def put_many(n: int) -> None:
        for i in range(500):
            outbox.put(f"{n}:{i}")

    threads = [threading.Thread(target=put_many, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    deadline = time.monotonic() + 10
    while len(ws.sent) < 4000 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert writer.join(5)
    assert len(ws.sent) == 4000
    for n in range(8):
        assert [m for m in ws.sent if m.startswith(f"{n}:")] == [f"{n}:{i}" for i in range(500)]


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
    writer = Writer(ws, outbox)
    for message in "abc":
        outbox.put(message)
    assert writer.join(5)
    assert (ws.sent, outbox.alive, ws.closed) == (["a"], False, None)


def test_a_close_goes_out_after_what_was_queued_and_a_silent_client_is_hung_up_on() -> None:
    hung_up: list[bool] = []
    ws, outbox = FakeWebsocket(block=threading.Event()), Outbox(100, lambda: hung_up.append(True))
    writer = Writer(ws, outbox)
    outbox.put("a")
    outbox.put("b")
    outbox.close(1012)
    assert ws.block is not None
    ws.block.set()  # (held until all three were asked for: they go out in one run of the writer)
    assert writer.join(5)  # LINGER_SECONDS for the client's close, which never comes
    assert ws.sent == ["a", "b"]
    assert ws.closed == (1012, "server restarting")
    assert hung_up == [True]


def test_a_send_blocked_past_the_send_timeout_is_found_and_dropped() -> None:
    hung_up: list[bool] = []
    release = threading.Event()
    ws, outbox = FakeWebsocket(block=release), Outbox(100, lambda: (hung_up.append(True), release.set()))
    connections = Connections(send_timeout=0.2)
    writer = Writer(ws, outbox)
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
    assert writer.join(5)
