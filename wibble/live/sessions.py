"""A connection as the live layer sees it: a session that subscribes to topics and carries credentials.

A session is never the actor a rule checks. It holds, per topic, the token it was
given (a game's, a match seat's or a room seat's) and the name it joined with; a
command's actor is whatever the document says that token holds (``holder``), looked up
afresh each time. So a room that moves its seats around changes only its document:
no other connection is rewritten, and any process can apply the change.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from .. import protocol
from ..engines.bus import Bus
from ..engines.presence import Presence
from ..ratelimit import TokenBucket
from .credentials import address_hash, holder_of

_ids = itertools.count(1)
_PROCESS = secrets.token_hex(4)
"""Session ids are unique across processes: presence and the bus name sessions of every process."""


@dataclass(frozen=True, slots=True)
class Credential:
    token: str | None
    """The secret this session was given on the topic (None: it only watches)."""
    holder: str | None
    """Its hash, as documents and presence name it."""
    name: str = ""
    """The display name it joined a room with (a seat it takes gets this name)."""

    @classmethod
    def of(cls, token: str | None, name: str = "") -> Credential:
        return cls(token, None if token is None else holder_of(token), name)


WATCHING = Credential(None, None)


class Session:
    """One connection: what it is on (a game, a match, a room), its credentials, a way to reach it.

    ``deliver`` takes an encoded frame and must never block (the websocket layer queues
    it); ``address`` is the client's network address, for per-address budgets.
    """

    __slots__ = ("address", "arrays", "credentials", "deliver", "failed_joins", "game", "id", "match", "room")

    def __init__(
        self,
        deliver: Callable[[str], None],
        address: str = "",
        session_id: str | None = None,
        arrays: bool = True,
    ) -> None:
        self.id = session_id or f"s{next(_ids)}.{_PROCESS}"
        self.deliver = deliver
        self.address = address
        self.arrays = arrays
        """Whether its client reads a frame holding several messages (an array); a page loaded
        before the server learnt to send them (still open across a restart) does not: it gets
        each message as a frame of its own (docs/protocol.md)."""
        self.credentials: dict[str, Credential] = {}
        self.game: str | None = None
        self.match: str | None = None
        """The match it plays or watches (a room's connections watch the room's match too)."""
        self.room: str | None = None
        """The room's topic (``room:<code>``) if it is in one."""
        self.failed_joins: TokenBucket | None = None

    def credential(self, topic: str | None) -> Credential:
        if topic is not None and topic == self.match and self.room is not None:
            topic = self.room  # a room's people act in its match as the room's seats
        return self.credentials.get(topic, WATCHING) if topic is not None else WATCHING

    def holder(self, topic: str) -> str | None:
        return self.credential(topic).holder

    def receive(
        self, topic: str, messages: Sequence[dict[str, Any]], frame: str | None, seq: int | None
    ) -> None:
        if seq is None and frame is not None and (self.arrays or len(messages) == 1):
            self.deliver(frame)  # the frame everyone without a seq gets, encoded once
            return
        own = []
        for message in messages:
            if protocol.is_personal(message):
                credential = self.credential(topic)
                message = protocol.for_reader(message, credential.holder, credential.token, credential.name)
            own.append(message if seq is None else {**message, "seq": seq})
        if self.arrays:
            self.deliver(protocol.frame(own))
        else:
            for message in own:
                self.deliver(protocol.encode(message))

    def __repr__(self) -> str:
        return f"<Session {self.id} {self.address}>"


Where = Literal["game", "match", "room"]
"""The three things a session can be on at once (a room's sessions watch its match too)."""


class Membership:
    """A session entering and leaving a topic, in one place: the session's field for it, its
    credential there, the bus it listens on, and presence. No service writes a session's fields."""

    def __init__(self, bus: Bus, presence: Presence) -> None:
        self.bus = bus
        self.presence = presence

    def enter(self, session: Session, where: Where, topic: str, credential: Credential | None = None) -> None:
        """``session`` is on ``topic`` from now on, acting with ``credential`` (None: with what it has
        there already; a room's sessions act in its match with their room credential)."""
        setattr(session, where, topic)
        if credential is not None:
            session.credentials[topic] = credential
        self.bus.subscribe(topic, session)
        self.presence.join(topic, session.id, session.holder(topic), address_hash(session.address))

    def change(self, session: Session, topic: str, credential: Credential) -> None:
        """``session``, still on ``topic``, acts with ``credential`` from now on (it took a seat, or
        got up from one, or joined again as the same: then presence has nothing new to hear)."""
        before = session.holder(topic)
        session.credentials[topic] = credential
        if credential.holder != before:
            self.presence.join(topic, session.id, credential.holder, address_hash(session.address))

    def leave(self, session: Session, where: Where) -> str | None:
        """``session`` leaves what it is on as ``where``; returns that topic (None: it was on none)."""
        topic: str | None = getattr(session, where)
        if topic is None:
            return None
        setattr(session, where, None)
        session.credentials.pop(topic, None)
        self.bus.unsubscribe(topic, session)
        self.presence.leave(topic, session.id)
        return topic
