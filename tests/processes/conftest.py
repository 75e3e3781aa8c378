"""Shared by the tests against real server processes (the second tier: see tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from tests.support import Client, LiveServer


@pytest.fixture
def clients() -> Iterator[Callable[[LiveServer], Client]]:
    """Open websocket clients on any server a test started; all closed at the end."""
    opened: list[Client] = []

    def open_client(server: LiveServer) -> Client:
        client = Client(server.ws_url)
        opened.append(client)
        return client

    yield open_client
    for client in opened:
        try:
            client.close()
        except Exception:
            pass
