"""One engine of each role under test, seen from several processes, for the contract suites.

``Engine.bus()``, ``presence()``, ``claims()`` and ``meter()`` each open another process's
handle on the same engine: with memory, the one object that every live stack of a process
shares; with Redis, a process of its own (its own name, connections and liveness key) on the
same Redis. A contract test written against handles holds for both.

Time: the memory engines run on a fake clock that ``pass_time`` moves; Redis keeps its
expiries and buckets on its own clock, so there real time passes (the tests keep it short
with short leases and expiries). What another process hears arrives later over Redis:
``settle`` waits for it (at once in memory).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from typing import Any

from tests.live.players import FakeClock
from wibble.engines.bus import Bus, MemoryBus, Subscriber
from wibble.engines.claims import Claims, MemoryClaims
from wibble.engines.meter import MemoryMeter, Meter
from wibble.engines.presence import MemoryPresence, Presence


def until(condition: Callable[[], object], seconds: float = 10.0) -> None:
    """Wait for another process's listener (a real thread, real Redis) to have done something."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.01)  # polling a condition, not a fixed wait


class Engine:
    name: str

    def bus(self) -> Bus:
        raise NotImplementedError

    def subscribe(self, bus: Bus, topic: str, subscriber: Subscriber) -> None:
        """``bus.subscribe``, and once other processes' publishes would reach it."""
        bus.subscribe(topic, subscriber)

    def presence(self, ttl: float = 30.0) -> Presence:
        raise NotImplementedError

    def claims(self) -> Claims:
        raise NotImplementedError

    def meter(self) -> Meter:
        raise NotImplementedError

    def pass_time(self, seconds: float) -> None:
        raise NotImplementedError

    def settle(self, condition: Callable[[], object]) -> None:
        raise NotImplementedError

    def close(self) -> None:
        pass


class MemoryEngine(Engine):
    """The memory engines of one process: every handle is the same object, as stacks share it."""

    name = "memory"

    def __init__(self) -> None:
        self.clock = FakeClock()
        self._bus = MemoryBus()
        self._presence: MemoryPresence | None = None
        self._claims = MemoryClaims(self.clock)
        self._meter = MemoryMeter(self.clock)

    def bus(self) -> Bus:
        return self._bus

    def presence(self, ttl: float = 30.0) -> Presence:
        if self._presence is None:  # one process, one presence: the first ``ttl`` asked holds
            self._presence = MemoryPresence(self.clock, ttl)
        return self._presence

    def claims(self) -> Claims:
        return self._claims

    def meter(self) -> Meter:
        return self._meter

    def pass_time(self, seconds: float) -> None:
        self.clock.advance(seconds)

    def settle(self, condition: Callable[[], object]) -> None:
        assert condition()  # delivered at once, in this thread


class RedisEngine(Engine):
    """The Redis engines: each handle another process on one Redis, or on one Redis Cluster
    (``name`` "cluster")."""

    def __init__(self, url: str, name: str = "redis") -> None:
        self.url = url
        self.name = name
        self._names = (f"host:{n}:test" for n in itertools.count(1))
        self._buses: list[Any] = []
        self._subscribed: dict[str, int] = {}

    def _client(self, **overrides: Any) -> Any:
        from wibble.engines.redis_client import connect

        return connect(self.url, **overrides)

    def _alive(self, ttl: float = 30.0) -> Any:
        """A process of its own, alive in presence for ``ttl`` seconds (it never beats again)."""
        from wibble.engines.presence.redis import RedisPresence

        return RedisPresence(self._client(), next(self._names), ttl=ttl)

    def bus(self) -> Bus:
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        from wibble.engines.bus.redis import RedisBus
        from wibble.engines.redis_client import opener

        process = self._alive()
        client = self._client()
        listener = opener(self.url, client, retry=Retry(NoBackoff(), 0))  # as open_engines makes it
        bus = RedisBus(client, process.process, open_listener=listener, alive_key=process.alive_key)
        self._buses.append(bus)
        return bus

    def subscribe(self, bus: Bus, topic: str, subscriber: Subscriber) -> None:
        before = bus.local.has(topic)  # type: ignore[attr-defined]
        bus.subscribe(topic, subscriber)
        if not before:
            self._subscribed[topic] = self._subscribed.get(topic, 0) + 1
        channel = bus._channel(topic)  # type: ignore[attr-defined]
        client = bus.client  # type: ignore[attr-defined]
        if self.name == "cluster":  # sharded: counted by the master of the channel's slot
            client = client.get_redis_connection(client.get_node_from_key(channel))
            until(lambda: client.pubsub_shardnumsub(channel)[0][1] >= self._subscribed[topic])
        else:
            until(lambda: client.pubsub_numsub(channel)[0][1] >= self._subscribed[topic])

    def presence(self, ttl: float = 30.0) -> Presence:
        presence: Presence = self._alive(ttl)
        return presence

    def claims(self) -> Claims:
        from wibble.engines.claims.redis import RedisClaims

        return RedisClaims(self._client())

    def meter(self) -> Meter:
        from wibble.engines.meter.redis import RedisMeter

        process = self._alive()
        return RedisMeter(self._client(), process.process, process.alive_key)

    def pass_time(self, seconds: float) -> None:
        time.sleep(seconds)  # Redis's own clock: its expiries and buckets

    def settle(self, condition: Callable[[], object]) -> None:
        until(condition)

    def close(self) -> None:
        for bus in self._buses:
            bus.stop()
