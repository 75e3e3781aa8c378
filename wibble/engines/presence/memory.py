"""Presence in one process: its sessions' entries in memory."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass


@dataclass(slots=True)
class _Entry:
    holder: str | None
    expires: float
    where: str = ""


class MemoryPresence:
    """Members in this process's memory; expiry is read lazily, against an injected clock."""

    def __init__(self, clock: Callable[[], float], ttl: float = float("inf")) -> None:
        self.clock = clock
        self.ttl = ttl
        self._topics: dict[str, dict[str, _Entry]] = {}
        self._sessions: dict[str, set[str]] = {}

    def join(self, topic: str, session_id: str, holder: str | None, where: str = "") -> None:
        self._topics.setdefault(topic, {})[session_id] = _Entry(holder, self.clock() + self.ttl, where)
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
        return {sid: entry.holder for sid, entry in self._live(topic).items()}

    def addresses(self, topic: str) -> dict[str, str]:
        return {sid: entry.where for sid, entry in self._live(topic).items()}

    def _live(self, topic: str) -> dict[str, _Entry]:
        members = self._topics.get(topic)
        if not members:
            return {}
        now = self.clock()
        expired = [sid for sid, entry in members.items() if entry.expires <= now]
        for session_id in expired:
            self.leave(topic, session_id)
        return self._topics.get(topic, {})

    def count(self, topic: str) -> int:
        return len(self.members(topic))

    def departed(self) -> dict[str, set[str]]:
        return {}  # one process: none other to die

    def forget(self, process: str) -> None:
        pass
