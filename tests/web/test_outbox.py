"""The outbox hands every message waiting to the socket in one write, each still its own websocket
frame, and the write gets all of it to a slow reader or fails."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import gevent
import pytest
from gevent import socket as gsocket

from wibble.web import frames
from wibble.web.connection import Outbox, Wire


def framed(writes: list[bytes]) -> list[str]:
    """What a browser reads from these bytes: each frame final, unmasked, text, one message."""
    data = b"".join(writes)
    messages = []
    while data:
        assert data[0] == 0x80 | frames.TEXT, data[:2]  # final, text
        assert not data[1] & 0x80, data[:2]  # unmasked
        size, at = data[1], 2
        if size == 126:
            size, at = int.from_bytes(data[2:4], "big"), 4
        elif size == 127:
            size, at = int.from_bytes(data[2:10], "big"), 10
        messages.append(data[at : at + size].decode("utf-8"))
        data = data[at + size :]
    return messages


def socket() -> tuple[list[bytes], Callable[[list[str]], None]]:
    """The writes a connection would make, and its ``write`` (as ``Wire.write_texts`` frames them)."""
    writes: list[bytes] = []

    def write(messages: list[str]) -> None:
        writes.append(frames.encode_texts(messages))

    return writes, write


def test_the_frames_of_one_event_go_out_in_one_write_each_its_own_message() -> None:
    writes, write = socket()
    outbox = Outbox(write, 100, lambda: None, lambda: None)
    messages = ['{"type":"word","word":"ÉTÉ"}', '{"type":"board","changed":[]}', '{"type":"x"}', "y" * 300]
    for message in messages:
        outbox.put(message)

    outbox.flush()

    assert len(writes) == 1
    assert framed(writes) == messages
    assert len(outbox) == 0


def test_a_failed_write_drops_the_client_and_what_it_had_waiting() -> None:
    def broken(messages: list[str]) -> None:
        raise OSError("connection reset")

    outbox = Outbox(broken, 100, lambda: None, lambda: None)
    outbox.put("a")
    outbox.put("b")
    outbox.flush()
    assert (outbox.alive, outbox.broken, len(outbox)) == (False, True, 0)
    outbox.put("c")
    assert len(outbox) == 0


def test_a_full_outbox_drops_the_client_and_hangs_up() -> None:
    hung_up: list[bool] = []
    woken: list[bool] = []
    outbox = Outbox(lambda messages: None, 2, lambda: woken.append(True), lambda: hung_up.append(True))
    for message in "abc":
        outbox.put(message)
    assert (outbox.alive, outbox.broken, hung_up, len(woken)) == (False, False, [True], 3)
    outbox.flush()
    assert len(outbox) == 0


@pytest.fixture
def tight_pair() -> Iterator[tuple[Wire, gsocket.socket]]:
    """A wire on a socket whose kernel buffer holds a few KB, and the client's end of it."""
    ours, theirs = gsocket.socketpair()
    ours.setsockopt(gsocket.SOL_SOCKET, gsocket.SO_SNDBUF, 4096)
    ours.settimeout(0.5)  # SEND_TIMEOUT
    wire = Wire(ours, None)
    yield wire, theirs
    wire.close()
    ours.close()
    theirs.close()


def test_a_write_larger_than_the_socket_takes_at_once_arrives_whole_and_in_order(
    tight_pair: tuple[Wire, gsocket.socket],
) -> None:
    # The first send takes what the kernel has room for; the rest waits for the slow reader.
    wire, client = tight_pair
    messages = [f"{n:06d}" * 2000 for n in range(40)]  # 480 KB: many times the buffer
    size = len(frames.encode_texts(messages))
    received = bytearray()

    def read_slowly() -> None:
        while len(received) < size:
            gevent.sleep(0.001)
            received.extend(client.recv(16384))

    reader = gevent.spawn(read_slowly)
    wire.write_texts(messages)
    reader.join(timeout=10)
    assert framed([bytes(received)]) == messages


def test_a_write_to_a_client_that_never_reads_ends_in_an_error_not_a_hang(
    tight_pair: tuple[Wire, gsocket.socket],
) -> None:
    wire, _ = tight_pair
    with pytest.raises(TimeoutError):  # SEND_TIMEOUT, as the connection then gives up on the client
        wire.write_texts(["x" * 100_000] * 40)  # 4 MB, never read
