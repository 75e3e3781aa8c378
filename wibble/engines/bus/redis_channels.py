"""The Redis bus's subscriptions: plain pub/sub on one Redis, sharded pub/sub on a Redis Cluster.

On one Redis a process subscribes to its channels on one connection. In a cluster plain
pub/sub would carry every message to every node (a cluster broadcasts PUBLISH), so the bus
uses sharded pub/sub there: ``SPUBLISH`` reaches only the shard that serves the channel's
slot (the same slot as the topic's history: one hash tag), and a process ``SSUBSCRIBE``s on
that shard's master, on a pub/sub connection of its own to each master (a plain ``PubSub`` of
the cluster client's connection to that node, ``get_redis_connection``). Each master's
connection is read by a reader of its own, so a quiet shard never holds up a busy one;
readers hand what they hear to one queue, which the bus's listener reads as it reads the
single connection of a plain Redis.

Not redis-py's ``ClusterPubSub``: since redis-py 8 a bounded read of it holds a lock that its
``ssubscribe`` waits for, and under gevent a reader that polls again at once never lets it go,
so the first new game's subscription waited for ever (a plain ``PubSub``, as on one Redis,
takes no lock to read). A plain ``PubSub`` that reconnected by itself would subscribe again to
all its channels in one ``SSUBSCRIBE``, which a cluster refuses when they span slots; the bus's
listener gets a client that never retries, so a lost connection reaches the bus, which opens a
fresh set instead.

A subscription set that is no longer whole raises ``Lost`` from ``next`` (or the error that
broke a connection): the bus then opens a fresh set on a fresh client (``RedisBus._resubscribe``)
and catches up from each topic's history. In a cluster that is also what happens when a
slot moves to another master (a resharding, a failover): Redis tells its subscribers with an
``sunsubscribe`` they did not ask for.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

log = logging.getLogger(__name__)


CONFIRM_SECONDS = 1.0
"""How long a cluster subscription waits for its master to confirm it, at most."""
READ_SECONDS = 1.0
"""How long a master's reader waits for a message before it looks whether its set is closed."""


class Lost(Exception):
    """A subscription was dropped by Redis: subscribe afresh, and catch up."""


class PlainChannels:
    """Every subscription of one process on one connection to one Redis."""

    def check(self, owner_of: Callable[[str], str], ask: Callable[[str], object]) -> None:
        """(One Redis serves every channel: nothing moves.)"""

    publish = "PUBLISH"
    """The command a publish script sends a topic's envelope with."""

    def __init__(self, client: Any, channels: Iterable[str]) -> None:
        self._pubsub = client.pubsub(ignore_subscribe_messages=True)
        self._pubsub.subscribe(*channels)

    def subscribe(self, channel: str) -> None:
        self._pubsub.subscribe(channel)

    def unsubscribe(self, channel: str) -> None:
        self._pubsub.unsubscribe(channel)

    def next(self, timeout: float) -> tuple[str, str] | None:
        """The next message (its channel and data), or None after ``timeout`` seconds."""
        message = self._pubsub.get_message(timeout=timeout)
        if message is None or message.get("type") != "message":
            return None
        return message["channel"], message["data"]

    def close(self) -> None:
        self._pubsub.close()

    def join(self, timeout: float) -> None:
        """(Nothing reads this connection but the bus's listener, which has stopped.)"""


class ShardChannels:
    """A process's subscriptions in a Redis Cluster: each on the master of its channel's slot."""

    publish = "SPUBLISH"

    def __init__(self, client: Any, channels: Iterable[str]) -> None:
        self._client = client
        self._heard: queue.Queue[dict[str, Any] | BaseException] = queue.Queue()
        self._pubsubs: dict[str, Any] = {}
        """Each master's pub/sub connection here, by the master's name; each has a reader."""
        self._readers: dict[str, threading.Thread] = {}
        self._leaving: Counter[str] = Counter()
        """Channels unsubscribed here whose confirmation is still to come."""
        self._leaving_lock = threading.Lock()
        """``_leaving`` is counted up under the bus's lock and down by the listener, which does not
        hold it: under ``flask run``'s threads, each count is a read and a write apart."""
        self._closed = False
        self._where: dict[str, str] = {}
        """Each channel subscribed here: the master it was subscribed on (by name)."""
        self._confirming: dict[str, threading.Event] = {}
        """Channels whose subscription their master has yet to confirm."""
        try:
            for channel in channels:
                self.subscribe(channel, raising=True, wait=False)
        except BaseException:
            self.close()  # the readers already started, and their subscriptions, go with it
            raise
        # All confirmed together, within one CONFIRM_SECONDS: a set made afresh (under the bus's
        # lock) with every channel on a master that does not answer waits a second, not a
        # second a channel.
        deadline = time.monotonic() + CONFIRM_SECONDS
        for channel, confirmed in list(self._confirming.items()):
            confirmed.wait(max(0.0, deadline - time.monotonic()))
            self._confirming.pop(channel, None)

    def subscribe(self, channel: str, raising: bool = False, wait: bool = True) -> None:
        # Called under the bus's lock (RedisBus._lock), as is unsubscribe: the masters' pub/subs
        # and the maps below are changed by one caller at a time.
        try:
            node = self._client.get_node_from_key(channel)
            pubsub = self._pubsubs.get(node.name)
            if pubsub is None:
                pubsub = self._client.get_redis_connection(node).pubsub()
                self._pubsubs[node.name] = pubsub
                reader = threading.Thread(
                    target=self._read, args=(pubsub,), name="wibble-bus-shard", daemon=True
                )
                self._readers[node.name] = reader
                reader.start()
            confirmed = self._confirming[channel] = threading.Event()
            pubsub.ssubscribe(channel)
        except Exception as exc:
            self._confirming.pop(channel, None)
            if raising:
                raise
            # Nobody reads a master's connection that was never made: the listener must hear it.
            self._heard.put(Lost(f"could not subscribe to {channel} ({exc})"))
            return
        self._where[channel] = node.name
        # Until its master has read the SSUBSCRIBE, a publish there is not heard here, nor counted
        # as heard (which is how a publisher tells a topic only it listens to): the first
        # subscription on a master also opens the connection, so that takes a while. A late
        # confirmation is no failure: the subscription stands once the master reads it.
        if wait:
            confirmed.wait(CONFIRM_SECONDS)
            self._confirming.pop(channel, None)

    def unsubscribe(self, channel: str) -> None:
        where = self._where.pop(channel, None)
        pubsub = self._pubsubs.get(where) if where is not None else None
        if pubsub is None:
            return  # never subscribed here (its subscription failed, and the listener heard so)
        with self._leaving_lock:
            self._leaving[channel] += 1
        pubsub.sunsubscribe(channel)

    def _read(self, pubsub: Any) -> None:
        """Hand on everything heard from one master, until the set is closed (then close the
        connection: see ``close``) or the connection fails."""
        try:
            while not self._closed:
                began = time.monotonic()
                try:
                    message = pubsub.get_sharded_message(timeout=READ_SECONDS)
                except Exception as exc:
                    if not self._closed:
                        self._heard.put(exc)
                    return
                if message is not None and message.get("type") == "ssubscribe":
                    confirmed = self._confirming.get(message.get("channel"))
                    if confirmed is not None:
                        confirmed.set()
                elif message is not None:
                    self._heard.put(message)
                elif time.monotonic() - began < 0.1:
                    time.sleep(0.1)  # no connection to this master now (nothing left on it): no spinning
        finally:
            if self._closed:
                _reset(pubsub)

    def wake(self) -> None:
        """A ``next`` under way returns now."""
        self._heard.put({})

    def next(self, timeout: float) -> tuple[str, str] | None:
        try:
            heard = self._heard.get(timeout=timeout)
        except queue.Empty:
            return None
        if isinstance(heard, BaseException):
            raise heard
        kind, channel = heard.get("type"), heard.get("channel")
        if kind == "smessage" and isinstance(channel, str):
            return channel, heard["data"]
        if kind == "sunsubscribe" and isinstance(channel, str):
            with self._leaving_lock:
                expected = self._leaving[channel] > 0
                if expected:
                    self._leaving[channel] -= 1
                    if not self._leaving[channel]:
                        del self._leaving[channel]
            if not expected and channel in self._where:
                raise Lost(f"Redis dropped the subscription to {channel} (its slot moved)")
        return None

    def check(self, owner_of: Callable[[str], str], ask: Callable[[str], object]) -> None:
        """``Lost`` if a channel's slot is served by another master now than the one it was
        subscribed on. A master that hangs rather than dies never closes its connections, so its
        readers would wait on it for ever while its replica serves the slot. ``ask(channel)``
        sends the process's command client to a channel's slot, once for each master subscribed
        on (a timeout or a MOVED there makes the client learn the cluster's map afresh), and
        ``owner_of(channel)`` names the master that client knows for it."""
        asked = set()
        for channel, where in list(self._where.items()):
            if where not in asked:
                asked.add(where)
                ask(channel)
            if owner_of(channel) != where:
                raise Lost(f"{channel} is served by another master now")

    def close(self) -> None:
        """Every subscription here ends, without waiting on the network (the bus may hold its
        lock): each master's reader closes its own connection once it stops reading it (``join``
        waits for that). A ``PubSub`` closed under a read still going on could be reconnected,
        and subscribed again, by that read (redis-py's ``can_read`` connects a closed connection
        and its callback resubscribes), and stay open holding its subscriptions: a publisher
        then counts a listener that is gone (seen on a busy machine, 2026-12-07). A reader is
        woken by unsubscribing its channels, only on a connection that is open and subscribed
        (anything else would open one); otherwise it looks again within ``READ_SECONDS``."""
        self._closed = True
        for name, pubsub in list(self._pubsubs.items()):
            reader = self._readers.get(name)
            if reader is None or not reader.is_alive():
                _reset(pubsub)  # nobody reads it any more (its reader failed, or has finished)
            elif pubsub.connection is not None and pubsub.subscribed:
                try:
                    pubsub.sunsubscribe()  # its confirmation wakes the reader at once
                except Exception:  # (a connection already lost: its reader stops all the same)
                    pass

    def join(self, timeout: float) -> None:
        """Wait, at most ``timeout`` seconds in all, for the readers to close their connections;
        one still reading then (a master that hangs) has its connection closed under it."""
        deadline = time.monotonic() + timeout
        for name, reader in list(self._readers.items()):
            reader.join(max(0.0, deadline - time.monotonic()))
            if reader.is_alive():
                _reset(self._pubsubs[name])


def _reset(pubsub: Any) -> None:
    try:
        pubsub.reset()
    except Exception:  # (a connection already lost)
        pass
