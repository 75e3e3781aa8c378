"""Who hears about which game, and handing them each change.

Each message is encoded once, however many connections watch the game (two tabs,
later a room full of players and spectators). With several server processes, this
is where a publish to Redis and a subscriber per process will go; nothing else
needs to change.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import protocol
from .clients import Client


class Fanout:
    def __init__(self) -> None:
        self._listeners: dict[str, set[Client]] = {}

    def add(self, game_id: str, client: Client) -> None:
        self._listeners.setdefault(game_id, set()).add(client)

    def remove(self, game_id: str, client: Client) -> None:
        listeners = self._listeners.get(game_id)
        if listeners is not None:
            listeners.discard(client)
            if not listeners:
                del self._listeners[game_id]

    def count(self, game_id: str) -> int:
        return len(self._listeners.get(game_id, ()))

    def listeners(self, game_id: str) -> list[Client]:
        return list(self._listeners.get(game_id, ()))

    def publish(
        self,
        game_id: str,
        messages: Iterable[dict[str, Any]],
        origin: Client | None = None,
        seq: int | None = None,
    ) -> None:
        """Send ``messages``, in order, to everyone on the game; ``origin`` alone gets them with its ``seq``.

        Call it under the game's lock, so that everyone hears the same order.
        """
        messages = list(messages)
        frames = [protocol.encode(message) for message in messages]
        for client in self.listeners(game_id):
            if client is origin and seq is not None:
                for message in messages:
                    client.deliver(protocol.encode({**message, "seq": seq}))
                continue
            for frame in frames:
                client.deliver(frame)
