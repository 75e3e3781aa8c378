"""Presence in Redis: who is connected to each topic, across every process, and which processes live.

- ``P:presence:{topic}`` a hash: session id → ``[holder, process]``;
- ``P:alive:<process>`` a key with an expiry, which each process renews (``heartbeat``);
- ``P:processes`` a set of every process, and ``P:topics:<process>`` the topics each has
  sessions on: a process listed whose key expired died, and a survivor sees to the rooms
  it had people in (``departed``, then ``forget``).

A member counts only while its process's key lives: a process that is SIGKILLed stops
renewing, and once its key expires every session it had is gone (the first reader
removes them). A session that leaves is removed at once.

Each process also keeps its own sessions' entries here and writes them all again at
every heartbeat: a process that was only cut off or paused past its key's expiry (its
entries removed meanwhile by another) comes back whole, and a join or leave that failed
while Redis was away is put right once it is back. A join or leave never raises for want
of Redis; a question (``members``) raises ``StorageError``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any

from ..redis_client import read_many
from ..store.base import StorageError

log = logging.getLogger(__name__)

ALIVE_SECONDS = 10.0
"""How long a process counts as alive after its last heartbeat (it beats every few seconds)."""


class RedisPresence:
    def __init__(self, client: Any, process: str, prefix: str = "wibble", ttl: float = ALIVE_SECONDS) -> None:
        import redis

        self.client = client
        self.process = process
        self.prefix = prefix
        self.ttl = ttl
        self._alive = self.alive_key(process)
        self._processes = f"{prefix}:processes"
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError,)
        self._mine: dict[tuple[str, str], tuple[str | None, str]] = {}
        """This process's sessions: (topic, session id) → the token hash each holds there, and the
        hash of the address it joined from."""
        self._left: set[tuple[str, str]] = set()
        """Leaves that could not reach Redis yet."""
        try:
            self.beat()
        except self._errors as exc:
            # A cluster failing over as the process starts (a master just died): the heartbeat
            # tries again every few seconds, as it does for a running process.
            log.warning("presence: Redis did not take this process's first heartbeat (%s); trying again", exc)

    def _topic(self, topic: str) -> str:
        return f"{self.prefix}:presence:{{{topic}}}"

    def alive_key(self, process: str) -> str:
        return f"{self.prefix}:alive:{process}"

    def _topics_of(self, process: str) -> str:
        return f"{self.prefix}:topics:{process}"

    def _where(self, topic: str) -> str:
        """The address hash each session joined from, in a hash of its own beside the entries:
        an entry stays ``[holder, process]``, which processes of every version read."""
        return f"{self.prefix}:addresses:{{{topic}}}"

    def _entry(self, holder: str | None) -> str:
        return json.dumps([holder, self.process])

    def beat(self) -> None:
        """This process lives for ``ttl`` more seconds, and its sessions' entries are written again
        (raises ``redis.RedisError`` if Redis is away: the next beat tries again)."""
        # The liveness key first, on its own: on a cluster the pipeline below reaches every shard
        # this process has sessions on, and one shard that is away must not make it dead.
        self.client.set(self._alive, "1", px=int(self.ttl * 1000))
        pipe = self.client.pipeline(transaction=False)
        for topic, session_id in self._left:
            pipe.hdel(self._topic(topic), session_id)
            pipe.hdel(self._where(topic), session_id)
        mine, left = dict(self._mine), set(self._left)
        for (topic, session_id), (holder, where) in mine.items():
            pipe.hset(self._topic(topic), session_id, self._entry(holder))
            if where:
                pipe.hset(self._where(topic), session_id, where)
        pipe.sadd(self._processes, self.process)
        pipe.delete(self._topics_of(self.process))  # (only a dead process's list is ever read)
        if mine:
            pipe.sadd(self._topics_of(self.process), *{topic for topic, _ in mine})
        pipe.execute()
        self._left -= left
        # A session that left while this was on its way may have been written back after its own
        # removal: the next beat removes it again.
        self._left |= mine.keys() - self._mine.keys()

    def join(self, topic: str, session_id: str, holder: str | None, where: str = "") -> None:
        self._mine[topic, session_id] = holder, where
        self._left.discard((topic, session_id))
        try:
            pipe = self.client.pipeline(transaction=False)
            pipe.hset(self._topic(topic), session_id, self._entry(holder))
            if where:
                pipe.hset(self._where(topic), session_id, where)
            pipe.sadd(self._topics_of(self.process), topic)  # should this process die before its next beat
            pipe.execute()
        except self._errors as exc:  # the next heartbeat writes it
            log.warning("could not note a session's presence (%s); the next heartbeat will", exc)

    def leave(self, topic: str, session_id: str) -> None:
        self._mine.pop((topic, session_id), None)
        try:
            pipe = self.client.pipeline(transaction=False)
            pipe.hdel(self._topic(topic), session_id)
            pipe.hdel(self._where(topic), session_id)
            pipe.execute()
        except self._errors as exc:  # the next heartbeat removes it
            log.warning("could not note that a session left (%s); the next heartbeat will", exc)
            self._left.add((topic, session_id))

    def heartbeat(self, session_ids: Iterable[str]) -> None:
        self.beat()  # a process's sessions live as long as the process does

    def members(self, topic: str) -> dict[str, str | None]:
        return self._live(topic)

    def addresses(self, topic: str) -> dict[str, str]:
        live = self._live(topic)
        try:
            wheres: dict[str, str] = self.client.hgetall(self._where(topic)) if live else {}
        except self._errors as exc:
            raise StorageError(f"redis: {exc}") from None
        return {sid: wheres.get(sid, "") for sid in live}

    def _live(self, topic: str) -> dict[str, str | None]:
        """Each live session on ``topic`` with its holder (entries of processes that died are
        removed as they are seen)."""
        try:
            entries: dict[str, str] = self.client.hgetall(self._topic(topic))
            if not entries:
                return {}
            parsed = {sid: json.loads(text) for sid, text in entries.items()}
            processes = sorted({process for _, process in parsed.values()})
            keys = [self.alive_key(p) for p in processes]
            alive = dict(zip(processes, read_many(self.client, keys), strict=True))
            alive[self.process] = alive.get(self.process) or "1"  # (this one is alive: it is asking)
            gone = [sid for sid, (_, process) in parsed.items() if alive[process] is None]
            if gone:
                pipe = self.client.pipeline(transaction=False)
                pipe.hdel(self._topic(topic), *gone)
                pipe.hdel(self._where(topic), *gone)
                pipe.execute()
        except self._errors as exc:
            raise StorageError(f"redis: {exc}") from None
        return {sid: holder for sid, (holder, process) in parsed.items() if alive[process] is not None}

    def count(self, topic: str) -> int:
        return len(self.members(topic))

    def departed(self) -> dict[str, set[str]]:
        """Every other process listed whose liveness key has expired, with its topics."""
        try:
            processes = sorted(set(self.client.smembers(self._processes)) - {self.process})
            if not processes:
                return {}
            alive = read_many(self.client, [self.alive_key(p) for p in processes])
            dead = [p for p, key in zip(processes, alive, strict=True) if key is None]
            pipe = self.client.pipeline(transaction=False)
            for process in dead:
                pipe.smembers(self._topics_of(process))
            return {p: set(topics) for p, topics in zip(dead, pipe.execute(), strict=True)}
        except self._errors as exc:
            raise StorageError(f"redis: {exc}") from None

    def forget(self, process: str) -> None:
        pipe = self.client.pipeline(transaction=False)
        pipe.srem(self._processes, process)
        pipe.delete(self._topics_of(process))
        pipe.execute()

    def forget_process(self) -> None:
        """This process stops (cleanly): its sessions are gone at once, not when its key expires;
        they left (each leave noted), so nobody need see to it as to a process that died."""
        self._mine.clear()
        self.forget(self.process)
        self.client.delete(self._alive)
