"""The one way out: everything a connection receives is published on a topic of the bus.

A topic is a document's id (a game, a match, ``room:<code>``). A publisher says what
happened and to whom (``Audience``); it never holds a connection. Each subscriber (a
``Session``) adds its own part as it delivers: the ``seq`` of its own request, and on
snapshots its seat and token (``wibble.protocol.for_reader``).

One publish is one frame to each session that hears it: a message alone is its JSON
object, several (what one move did: a word played, its refill, the next turn) a JSON array
of them, in order, so that a session reads what one change did in one websocket message.
Every frame is encoded once, however many sessions hear it; only a frame holding a message
that a session personalises, or its own request's ``seq``, is encoded again for it.
``MemoryBus`` (``memory``) serves one process; ``RedisBus`` (``redis``) publishes the same
envelopes to every process, whose own bus then hands them to its sessions, so nothing above
this package knows how many processes there are.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

Message = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Audience:
    """Who on a topic hears a message: everyone (the default), only the sessions holding one of
    ``holders`` (token hashes: a seat's hint), or only the session ``session``; ``skip`` leaves
    one session out (it was told already)."""

    holders: frozenset[str] | None = None
    session: str | None = None
    skip: str | None = None

    def includes(self, session_id: str, holder: str | None) -> bool:
        if session_id == self.skip:
            return False
        if self.session is not None:
            return session_id == self.session
        if self.holders is not None:
            return holder is not None and holder in self.holders
        return True


EVERYONE = Audience()


def holders_of(*holders: str | None) -> Audience:
    return Audience(holders=frozenset(h for h in holders if h is not None))


def only(session_id: str) -> Audience:
    return Audience(session=session_id)


def all_but(session_id: str) -> Audience:
    return Audience(skip=session_id)


class Subscriber(Protocol):
    """A session, as the bus sees it."""

    @property
    def id(self) -> str: ...

    def holder(self, topic: str) -> str | None:
        """The token hash this session acts with on ``topic`` (None: it watches)."""

    def receive(self, topic: str, messages: Sequence[Message], frame: str | None, seq: int | None) -> None:
        """Deliver ``messages`` as one frame, adding ``seq`` to each if it is given; ``frame`` is
        that frame encoded for everyone (``protocol.frame``), given whenever ``seq`` is not and no
        message is personal (otherwise the subscriber encodes its own)."""


class Bus(Protocol):
    def subscribe(self, topic: str, subscriber: Subscriber) -> None: ...

    def unsubscribe(self, topic: str, subscriber: Subscriber) -> None: ...

    def publish(
        self,
        topic: str,
        messages: Iterable[Message],
        audience: Audience = EVERYONE,
        origin: str | None = None,
        seq: int | None = None,
    ) -> None:
        """Hand ``messages``, in order, to the topic's subscribers in ``audience``; the session
        ``origin`` gets them with its request's ``seq``. Call it under the document's lock, so
        that everyone hears the same order."""

    def reply(self, subscriber: Subscriber, messages: Sequence[Message], seq: int | None) -> None:
        """Answer a request of ``subscriber`` (a session of this process) that is about no topic
        (the daily leaderboard): ``messages``, with its ``seq``."""


def reply(subscriber: Subscriber, messages: Sequence[Message], seq: int | None) -> None:
    """Every engine's ``Bus.reply``: the answer goes to the session here, whatever the engine."""
    subscriber.receive("", messages, None, seq)


class Unsettled(Exception):
    """What a bus's ``on_resubscribe`` raises when it could show only some of what a process
    missed afresh (Redis only partly back): the bus calls it again, soon, with ``topics``."""

    def __init__(self, topics: Collection[str], reason: str) -> None:
        super().__init__(reason)
        self.topics = set(topics)
