"""The outbox hands every frame waiting to the socket in one write, each still its own websocket message."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from wsproto.connection import Connection, ConnectionType
from wsproto.events import TextMessage

from wibble.web.connection import Outbox


def socket_pair() -> tuple[Any, list[bytes], list[str]]:
    """A websocket as simple-websocket holds it (a wsproto server connection and a socket)
    whose writes are kept, and a list its own ``send`` (one message, one write) appends to."""
    writes: list[bytes] = []
    one_by_one: list[str] = []
    server = Connection(ConnectionType.SERVER)

    def send(frame: str) -> None:
        one_by_one.append(frame)
        writes.append(server.send(TextMessage(data=frame)))

    ws = SimpleNamespace(ws=server, sock=SimpleNamespace(send=writes.append), connected=True, send=send)
    return ws, writes, one_by_one


def messages(writes: list[bytes]) -> list[str]:
    """What a browser reads from these bytes: one text message per frame."""
    client = Connection(ConnectionType.CLIENT)
    for chunk in writes:
        client.receive_data(chunk)
    events = list(client.events())
    assert all(isinstance(event, TextMessage) and event.message_finished for event in events)
    return [event.data for event in events if isinstance(event, TextMessage)]


def test_the_frames_of_one_event_go_out_in_one_write_each_its_own_message() -> None:
    ws, writes, _ = socket_pair()
    outbox = Outbox(ws, 100, lambda: None, lambda: None)
    frames = ['{"type":"word","word":"ÉTÉ"}', '{"type":"board","changed":[]}', '{"type":"x"}']
    for frame in frames:
        outbox.put(frame)

    outbox.flush()

    assert len(writes) == 1
    assert messages(writes) == frames
    assert len(outbox) == 0


def test_a_single_frame_is_sent_as_before() -> None:
    ws, writes, one_by_one = socket_pair()
    outbox = Outbox(ws, 100, lambda: None, lambda: None)
    outbox.put('{"type":"chain"}')
    outbox.flush()
    assert one_by_one == ['{"type":"chain"}']
    assert messages(writes) == ['{"type":"chain"}']


def test_a_failed_write_drops_the_client_and_what_it_had_waiting() -> None:
    ws, _, _ = socket_pair()

    def broken(data: bytes) -> None:
        raise OSError("connection reset")

    ws.sock.send = broken
    outbox = Outbox(ws, 100, lambda: None, lambda: None)
    outbox.put("a")
    outbox.put("b")
    outbox.flush()
    assert (outbox.alive, outbox.broken, len(outbox)) == (False, True, 0)
