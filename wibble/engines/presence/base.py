"""Who is connected to which document: one service that every rule about presence asks.

A member is a session on a topic, with the token hash it holds there (None: it
watches) and a hash of the address it connects from. Grace periods, stand-ins, the
host hand-on, letting a game leave memory, deleting an empty room and a room's caps
per address all ask this service, never a process's own list of sockets: with several
processes, a seat connected to another process is still connected.

An entry may expire ``ttl`` seconds after it was last refreshed (``join`` or
``heartbeat``): a process that dies stops refreshing, and its sessions count as gone
once their entries expire. ``MemoryPresence`` (``memory``) keeps this process's members,
and by default no expiry (a session leaves when its socket closes, and a process that dies
takes this memory with it); ``RedisPresence`` (``redis``) keeps every process's, with an
expiry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol


class Presence(Protocol):
    def join(self, topic: str, session_id: str, holder: str | None, where: str = "") -> None:
        """``session_id`` is on ``topic`` acting as ``holder`` (a token hash; None: watching), from
        ``where`` (a hash of its network address: never the address itself)."""

    def leave(self, topic: str, session_id: str) -> None: ...

    def heartbeat(self, session_ids: Iterable[str]) -> None:
        """Refresh these sessions' entries, on every topic they are on."""

    def members(self, topic: str) -> dict[str, str | None]:
        """Every live session on ``topic``, with the token hash it holds."""

    def count(self, topic: str) -> int: ...

    def addresses(self, topic: str) -> dict[str, str]:
        """Every live session on ``topic``, with the address hash it joined from (a room's cap on
        watchers from one address, and who a removal bars, hold across processes)."""

    def departed(self) -> dict[str, set[str]]:
        """Other processes that died (their liveness ran out), each with the topics it had
        sessions on: what a survivor checks for people whose connection died with them."""

    def forget(self, process: str) -> None:
        """A departed process has been seen to: it is no longer listed by ``departed``."""


def holders(presence: Presence, topic: str) -> set[str]:
    """The token hashes that have a session on ``topic``."""
    return {holder for holder in presence.members(topic).values() if holder is not None}
