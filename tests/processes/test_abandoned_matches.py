"""Matches nobody plays cost nothing (issue 18): the audit opened bot matches of 5 hard bots at speed
4, 20 rounds and 5 s turns, closed each socket at once, and took a server to 96% CPU. Here a real
server gets twenty such matches, and its own CPU time is read while they sit abandoned."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import pytest

from tests.support import Client, LiveServer

# Alone: it measures the server's CPU use, so nothing else runs beside it (make test).
pytestmark = pytest.mark.alone

QUICK_BOTS = {"WIBBLE_BOT_THINK_SECONDS": "0", "WIBBLE_BOT_STEP_SECONDS": "0.01"}
HARSH = {"type": "new_match", "rounds": 20, "turn_seconds": 5, "bots": [{"level": "hard", "speed": 4}] * 5}


@pytest.fixture
def server() -> Iterator[LiveServer]:
    server = LiveServer("--data-dir", "", env=QUICK_BOTS)
    yield server
    server.stop()


def cpu_seconds(pid: int) -> float:
    """User and system CPU time the process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


QUIET = 0.1
"""The share of a core an idle server stays under."""
WINDOW = 1.0
"""Seconds over which its CPU time is read: ten ticks of the kernel's clock at QUIET."""


def settles(pid: int, deadline: float) -> float | None:
    """None once the process has used under ``QUIET`` of a core over a ``WINDOW`` (a window starts
    as the last ends); the share of the last window if none did by ``deadline``."""
    while True:
        before, started = cpu_seconds(pid), time.monotonic()
        time.sleep(WINDOW)
        used = (cpu_seconds(pid) - before) / (time.monotonic() - started)
        if used < QUIET:
            return None
        if time.monotonic() > deadline:
            return used


def test_abandoned_bot_matches_leave_the_server_idle_and_resume_where_they_stood(server: LiveServer) -> None:
    matches = []
    for _ in range(20):
        client = Client(server.ws_url)
        snapshot = client.ask(HARSH)
        assert snapshot["type"] == "match", snapshot
        matches.append((snapshot["match_id"], snapshot["token"]))
        client.send({"type": "pass"})  # the bots' turns begin...
        assert client.recv()["type"] == "turn"
        client.close()  # ...and nobody stays to watch them

    # Waiting for the server to settle: it may still be hearing the last sockets close, or a bot
    # finishing the turn it was in. Matches that went on playing would never settle.
    quiet = settles(server.process.pid, deadline=time.monotonic() + 10)
    assert quiet is None, f"the server used {quiet:.0%} of a core on matches nobody plays"

    mid, token = matches[0]
    back = Client(server.ws_url)
    try:
        again = back.ask({"type": "resume", "match_id": mid, "token": token})
        assert again["type"] == "match"
        # It stood still: a bot may have finished the turn it was in as the socket closed, but
        # none went on through the round's twenty bot turns while nobody was there.
        assert again["round"] == 1
        assert again["turn_no"] <= 3
    finally:
        back.close()
