"""The bus of one process: topics and their subscribers in memory."""

from __future__ import annotations

from collections.abc import Iterable

from ... import protocol
from .base import EVERYONE, Audience, Message, Subscriber, reply


class MemoryBus:
    """Topics and their subscribers in this process."""

    reply = staticmethod(reply)

    def __init__(self) -> None:
        self._topics: dict[str, dict[str, Subscriber]] = {}

    def subscribe(self, topic: str, subscriber: Subscriber) -> None:
        self._topics.setdefault(topic, {})[subscriber.id] = subscriber

    def unsubscribe(self, topic: str, subscriber: Subscriber) -> None:
        subscribers = self._topics.get(topic)
        if subscribers is not None and subscribers.get(subscriber.id) is subscriber:
            del subscribers[subscriber.id]
            if not subscribers:
                del self._topics[topic]

    def has(self, topic: str) -> bool:
        """Whether anyone here is on ``topic``."""
        return topic in self._topics

    def holds(self, topic: str, session_id: str) -> bool:
        """Whether the session ``session_id`` is here, on ``topic``."""
        return session_id in self._topics.get(topic, {})

    def publish(
        self,
        topic: str,
        messages: Iterable[Message],
        audience: Audience = EVERYONE,
        origin: str | None = None,
        seq: int | None = None,
    ) -> None:
        subscribers = self._topics.get(topic)
        if not subscribers:
            return
        messages = list(messages)
        if not messages:
            return  # (nothing to say is no frame at all, not an empty one)
        frame: str | None = None
        # A personal message is encoded for each reader (by the session), so nothing is for all.
        shared = not any(protocol.is_personal(m) for m in messages)
        for subscriber in list(subscribers.values()):
            if not audience.includes(subscriber.id, subscriber.holder(topic)):
                continue
            own = seq if subscriber.id == origin else None
            # Encoded once for everyone without a seq, and only if someone is: in a game
            # played alone the one reader is the mover, whose frame carries its seq.
            if frame is None and own is None and shared:
                frame = protocol.frame(messages)
            subscriber.receive(topic, messages, frame, own)
