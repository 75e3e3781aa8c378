"""The bus in Redis: every process hears what any process publishes on a topic its sessions watch.

Each process keeps its own ``MemoryBus`` of local sessions. ``publish`` delivers to them
at once, then publishes the same envelope (messages, audience, the publishing process)
on the topic's channel, ``P:bus:{topic}``; a process subscribes to a channel while one of
its sessions is on the topic, and its listener hands what other processes publish to its
local sessions. A reply to one local session never leaves the process.

Pub/sub delivers at most once: after a lost connection to Redis, the listener
subscribes again and calls ``on_resubscribe`` so that the live layer can send every local
session a fresh snapshot (they may have missed changes meanwhile).

Most topics are heard by one process only (a player's own game), so publishing every drag
step to Redis for nobody would cost each event a round trip. ``PUBLISH`` answers how many
subscribers heard it: once only this process did, the topic is *alone* and nothing more
is sent for it, until another process subscribes to it and says so on ``P:bus:joined``
(which every process hears, and which clears the mark at once).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from ..live.bus import EVERYONE, Audience, MemoryBus, Message, Subscriber

log = logging.getLogger(__name__)

RECONNECT_PAUSE = 0.5
ALONE_KEPT = 100_000
"""Topics remembered as heard by this process alone, at most."""
"""Seconds between attempts to subscribe again while Redis is away."""


def _audience_doc(audience: Audience) -> list[Any]:
    holders = None if audience.holders is None else sorted(audience.holders)
    return [holders, audience.session, audience.skip]


def _audience(doc: list[Any]) -> Audience:
    holders, session, skip = doc
    return Audience(None if holders is None else frozenset(holders), session, skip)


class RedisBus:
    def __init__(self, client: Any, process: str, prefix: str = "wibble", listener: Any = None) -> None:
        self.client = client
        self.listener = listener if listener is not None else client
        """The client whose connection the subscriptions use."""
        self.process = process
        self.prefix = prefix
        self.local = MemoryBus()
        self.on_resubscribe: Callable[[], object] = lambda: None
        """Called after the listener subscribed again following a lost connection."""
        self._channels: set[str] = set()
        self._alone: set[str] = set()
        """Topics no other process listens to (see the module's docstring)."""
        self._joined = f"{prefix}:bus:joined"
        self._joins_heard = 0
        self._lock = threading.Lock()
        self._pubsub = self.listener.pubsub(ignore_subscribe_messages=True)
        self._pubsub.subscribe(self._joined)
        self._stopped = False
        self._thread: threading.Thread | None = None
        self.start()

    def _channel(self, topic: str) -> str:
        return f"{self.prefix}:bus:{{{topic}}}"

    def _topic(self, channel: str) -> str:
        return channel[len(self.prefix) + 6 : -1]

    # -- the Bus interface -----------------------------------------------------------------

    def subscribe(self, topic: str, subscriber: Subscriber) -> None:
        self.local.subscribe(topic, subscriber)
        channel = self._channel(topic)
        with self._lock:
            if channel in self._channels:
                return
            self._channels.add(channel)
            try:
                self._pubsub.subscribe(channel)
            except Exception as exc:  # the listener finds the connection lost and subscribes again
                log.warning("could not subscribe to %s yet (%s)", channel, exc)
        self.start()
        self._say_joined([topic])

    def unsubscribe(self, topic: str, subscriber: Subscriber) -> None:
        self.local.unsubscribe(topic, subscriber)
        if self.local.has(topic):
            return
        self._alone.discard(topic)  # (whoever publishes on it next asks Redis afresh)
        channel = self._channel(topic)
        with self._lock:
            if channel in self._channels:
                self._channels.discard(channel)
                try:
                    self._pubsub.unsubscribe(channel)
                except Exception as exc:  # the listener subscribes afresh to what is left
                    log.warning("could not unsubscribe from %s: %s", channel, exc)

    def publish(
        self,
        topic: str,
        messages: Iterable[Message],
        audience: Audience = EVERYONE,
        origin: str | None = None,
        seq: int | None = None,
    ) -> None:
        messages = list(messages)
        self.local.publish(topic, messages, audience, origin, seq)
        if topic in self._alone:
            return  # nobody elsewhere listens
        if audience.session is not None and self.local.holds(topic, audience.session):
            return  # one local session's own: nobody elsewhere hears it
        envelope = json.dumps({"p": self.process, "a": _audience_doc(audience), "m": messages})
        joins = self._joins_heard
        try:
            heard = self.client.publish(self._channel(topic), envelope)
        except Exception as exc:  # the others catch up with a snapshot when they resubscribe
            log.warning("could not publish on %s to other processes: %s", topic, exc)
            return
        # Alone only if no process said it joined while the answer was on its way (it may have
        # subscribed just after this PUBLISH, and its word been read here before the answer).
        if heard <= (1 if self.local.has(topic) else 0) and self._joins_heard == joins:
            if len(self._alone) >= ALONE_KEPT:
                self._alone.clear()  # a bound on memory: the next publish of each asks again
            self._alone.add(topic)

    def _say_joined(self, topics: list[str]) -> None:
        """Tell the other processes that this one listens to ``topics`` now."""
        try:
            self.client.publish(self._joined, json.dumps({"p": self.process, "t": topics}))
        except Exception as exc:  # until Redis is back nothing crosses anyway; resubscribing says it again
            log.warning("could not tell other processes of a subscription: %s", exc)

    # -- the listener ----------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._listen, name="wibble-bus", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stopped = True
        try:
            self._pubsub.close()
        except Exception:
            pass

    def _listen(self) -> None:
        while not self._stopped:
            try:
                message = self._pubsub.get_message(timeout=1.0)
            except Exception as exc:
                if self._stopped:
                    return
                log.warning("lost the bus's connection to Redis (%s); subscribing again", exc)
                self._resubscribe()
                continue
            if message is None or message.get("type") != "message":
                continue
            if message["channel"] == self._joined:
                self._heard_joined(message["data"])
            else:
                self._deliver(message["channel"], message["data"])

    def _heard_joined(self, data: str) -> None:
        try:
            joined = json.loads(data)
        except ValueError:
            return
        if joined.get("p") != self.process:
            self._joins_heard += 1
            self._alone.difference_update(joined.get("t", ()))

    def _deliver(self, channel: str, data: str) -> None:
        try:
            envelope = json.loads(data)
        except ValueError:
            log.warning("a bus message on %s is not JSON; dropped", channel)
            return
        if envelope.get("p") == self.process:
            return  # this process delivered it already
        try:
            self.local.publish(self._topic(channel), envelope["m"], _audience(envelope["a"]))
        except Exception:
            log.exception("delivering a bus message on %s failed", channel)

    def _resubscribe(self) -> None:
        while not self._stopped:
            time.sleep(RECONNECT_PAUSE)
            try:
                with self._lock:
                    self._pubsub.close()
                    self._pubsub = self.listener.pubsub(ignore_subscribe_messages=True)
                    self._pubsub.subscribe(self._joined, *self._channels)
            except Exception as exc:
                log.warning("Redis is still away (%s)", exc)
                continue
            log.warning("the bus is back: subscribed again to %d topics; catching up", len(self._channels))
            self._alone.clear()  # (who listens may have changed meanwhile)
            self._say_joined([self._topic(channel) for channel in self._channels])
            try:
                self.on_resubscribe()
            except Exception:
                log.exception("catching up after Redis came back failed")
            return
