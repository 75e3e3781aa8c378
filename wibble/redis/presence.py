"""Presence in Redis: who is connected to each topic, across every process, and which processes live.

- ``P:presence:{topic}`` a hash: session id → ``[holder, process]``;
- ``P:alive:<process>`` a key with an expiry, which each process renews (``heartbeat``).

A member counts only while its process's key lives: a process that is SIGKILLed stops
renewing, and once its key expires every session it had is gone (the first reader
removes them). A session that leaves is removed at once.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

ALIVE_SECONDS = 10.0
"""How long a process counts as alive after its last heartbeat (it beats every few seconds)."""


class RedisPresence:
    def __init__(self, client: Any, process: str, prefix: str = "wibble", ttl: float = ALIVE_SECONDS) -> None:
        self.client = client
        self.process = process
        self.prefix = prefix
        self.ttl = ttl
        self._alive = self.alive_key(process)
        self.beat()

    def _topic(self, topic: str) -> str:
        return f"{self.prefix}:presence:{{{topic}}}"

    def alive_key(self, process: str) -> str:
        return f"{self.prefix}:alive:{process}"

    def beat(self) -> None:
        """This process lives for ``ttl`` more seconds."""
        self.client.set(self._alive, "1", px=int(self.ttl * 1000))

    def join(self, topic: str, session_id: str, holder: str | None) -> None:
        self.client.hset(self._topic(topic), session_id, json.dumps([holder, self.process]))

    def leave(self, topic: str, session_id: str) -> None:
        self.client.hdel(self._topic(topic), session_id)

    def heartbeat(self, session_ids: Iterable[str]) -> None:
        self.beat()  # a process's sessions live as long as the process does

    def members(self, topic: str) -> dict[str, str | None]:
        entries: dict[str, str] = self.client.hgetall(self._topic(topic))
        if not entries:
            return {}
        parsed = {sid: json.loads(text) for sid, text in entries.items()}
        processes = sorted({process for _, process in parsed.values()})
        alive = dict(zip(processes, self.client.mget([self.alive_key(p) for p in processes]), strict=True))
        gone = [sid for sid, (_, process) in parsed.items() if alive[process] is None]
        if gone:
            self.client.hdel(self._topic(topic), *gone)
        return {sid: holder for sid, (holder, process) in parsed.items() if alive[process] is not None}

    def count(self, topic: str) -> int:
        return len(self.members(topic))

    def forget_process(self) -> None:
        """This process stops (cleanly): its sessions are gone at once, not when its key expires."""
        self.client.delete(self._alive)
