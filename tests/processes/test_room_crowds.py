"""Hostile crowds against a real server: connections that re-join a room in bursts, as the audit of
issue 18 did (join_room frames back to back, about the whole allowed burst, from each of three
tabs), must never cut off anyone who reads, and must not slow a player in another room."""

from __future__ import annotations

import json
import statistics
import time

import pytest

from tests.processes.test_rooms import Clients, Seat, create, join
from tests.processes.test_rooms import server as server  # the fixture: a server with quick bots
from tests.support import Client, LiveServer
from tests.wire import until

# Alone: it times how long joins take, so nothing else runs beside it (make test).
pytestmark = pytest.mark.alone

BURST = 70
"""Frames each tab sends at once: within the burst a connection may send (80), so that every one
is handled and answered; 3 x 70 re-joins used to queue 420 messages for each reader, past the
256 that gets a client dropped as not reading."""


def round_trip(who: Seat, code: str) -> float:
    """Seconds for a re-join of one's own room (answered by the room, to this connection only)."""
    started = time.perf_counter()
    who.send(
        {"type": "join_room", "code": code, "name": who.name, **({"token": who.token} if who.token else {})}
    )
    until(who.client, "room")
    return time.perf_counter() - started


def burst(client: Client, code: str) -> None:
    frame = json.dumps({"type": "join_room", "code": code, "name": "X"})
    for _ in range(BURST):
        client.ws.send(frame)


def test_tabs_rejoining_in_bursts_never_drop_the_host_or_the_readers_nor_slow_another_room(
    server: LiveServer, clients: Clients
) -> None:
    host, code = create(server, clients)
    readers = [join(server, clients, code, f"R{n}") for n in range(3)]
    hostile = [join(server, clients, code, f"X{n}") for n in range(3)]
    other, elsewhere = create(server, clients, "Bystander")
    quiet = [round_trip(other, elsewhere) for _ in range(20)]

    for tab in hostile:
        burst(tab.client, code)
    during = [round_trip(other, elsewhere) for _ in range(20)]
    for tab in hostile:  # (read here only to know the server has handled every frame)
        for _ in range(BURST):
            until(tab.client, "room")

    for who in (host, *readers):
        assert round_trip(who, code) < 5  # still connected: its own answer arrives
    # The bystander never waits long on another room's crowd (the audit: 0.6 ms -> 465 ms median).
    assert statistics.median(during) < max(0.1, 20 * statistics.median(quiet)), (quiet, during)


def test_a_wave_of_new_watchers_reaches_the_host_as_a_few_counts(
    server: LiveServer, clients: Clients
) -> None:
    host, code = create(server, clients)
    # (Eight: every test connection comes from one address, which may watch a room ten times.)
    crowd = [join(server, clients, code, f"W{n}") for n in range(8)]
    last = until(host.client, "spectators", lambda m: m["count"] == len(crowd))
    counts = [m["count"] for m in last if m["type"] == "spectators"]
    assert counts[-1] == 8
    assert len(counts) <= 4, counts  # at once, then about once a second: never one per arrival
    assert all(round_trip(w, code) < 5 for w in crowd)


def test_rooms_made_and_left_at_once_never_keep_others_out(clients: Clients) -> None:
    """The audit filled MAX_ROOMS from 201 addresses in half a second, creating rooms and leaving:
    everyone else got server/full for half an hour. Here the cap is 3."""
    capped = LiveServer("--data-dir", "", env={"WIBBLE_MAX_ROOMS": "3"})
    try:
        for n in range(6):  # twice the cap, each creator gone at once
            maker, _ = create(capped, clients, f"M{n}")
            maker.client.close()
        ann, code = create(capped, clients, "Ann")  # a real host still gets a room
        bo = join(capped, clients, code, "Bo")
        assert bo.seat is None
        assert ann.seat == 0
    finally:
        capped.stop()
