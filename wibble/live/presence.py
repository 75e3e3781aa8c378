"""Who is connected to which document: one service that every rule about presence asks.

A member is a session on a topic, with the token hash it holds there (None: it
watches). Grace periods, stand-ins, the host hand-on, letting a game leave memory and
deleting an empty room all ask this service, never a process's own list of sockets:
with several processes, a seat connected to another process is still connected.

An entry may expire ``ttl`` seconds after it was last refreshed (``join`` or
``heartbeat``): a process that dies stops refreshing, and its sessions count as gone
once their entries expire. ``MemoryPresence`` keeps this process's members, and by
default no expiry (a session leaves when its socket closes, and a process that dies
takes this memory with it); a shared engine keeps every process's, with an expiry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol


class Presence(Protocol):
    def join(self, topic: str, session_id: str, holder: str | None) -> None:
        """``session_id`` is on ``topic`` acting as ``holder`` (a token hash; None: watching)."""

    def leave(self, topic: str, session_id: str) -> None: ...

    def heartbeat(self, session_ids: Iterable[str]) -> None:
        """Refresh these sessions' entries, on every topic they are on."""

    def members(self, topic: str) -> dict[str, str | None]:
        """Every live session on ``topic``, with the token hash it holds."""

    def count(self, topic: str) -> int: ...

    def departed(self) -> dict[str, set[str]]:
        """Other processes that died (their liveness ran out), each with the topics it had
        sessions on: what a survivor checks for people whose connection died with them."""

    def forget(self, process: str) -> None:
        """A departed process has been seen to: it is no longer listed by ``departed``."""


@dataclass(slots=True)
class _Entry:
    holder: str | None
    expires: float


class MemoryPresence:
    """Members in this process's memory; expiry is read lazily, against an injected clock."""

    def __init__(self, clock: Callable[[], float], ttl: float = float("inf")) -> None:
        self.clock = clock
        self.ttl = ttl
        self._topics: dict[str, dict[str, _Entry]] = {}
        self._sessions: dict[str, set[str]] = {}

    def join(self, topic: str, session_id: str, holder: str | None) -> None:
        self._topics.setdefault(topic, {})[session_id] = _Entry(holder, self.clock() + self.ttl)
        self._sessions.setdefault(session_id, set()).add(topic)

    def leave(self, topic: str, session_id: str) -> None:
        members = self._topics.get(topic)
        if members is not None:
            members.pop(session_id, None)
            if not members:
                del self._topics[topic]
        topics = self._sessions.get(session_id)
        if topics is not None:
            topics.discard(topic)
            if not topics:
                del self._sessions[session_id]

    def heartbeat(self, session_ids: Iterable[str]) -> None:
        expires = self.clock() + self.ttl
        for session_id in session_ids:
            for topic in self._sessions.get(session_id, ()):
                entry = self._topics[topic].get(session_id)
                if entry is not None:
                    entry.expires = expires

    def members(self, topic: str) -> dict[str, str | None]:
        members = self._topics.get(topic)
        if not members:
            return {}
        now = self.clock()
        expired = [sid for sid, entry in members.items() if entry.expires <= now]
        for session_id in expired:
            self.leave(topic, session_id)
        return {sid: entry.holder for sid, entry in members.items()}

    def count(self, topic: str) -> int:
        return len(self.members(topic))

    def departed(self) -> dict[str, set[str]]:
        return {}  # one process: none other to die

    def forget(self, process: str) -> None:
        pass


def holders(presence: Presence, topic: str) -> set[str]:
    """The token hashes that have a session on ``topic``."""
    return {holder for holder in presence.members(topic).values() if holder is not None}
