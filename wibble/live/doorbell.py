"""The doorbell: a commit is rung to every other live stack sharing the bus, which refreshes its copy.

Each process (each live stack) holds documents in memory as a cache of the store.
When one commits a new version, the others' copies are stale: the doorbell tells
them (the kind, the id and the version, on the bus's ``_commits`` topic), and each
that holds an older copy reads the new one from the store at once, before its next
command could be refused as a conflict. The messages of the change itself reach
every session through the bus as usual; a refresh tells nobody anything.

Only a live layer whose bus is shared with other stacks rings (``wire(bus=...)``);
one process alone, the default, has nobody to tell and pays nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from .bus import Bus, all_but

COMMITS = "_commits"
"""The bus topic that carries the doorbell (not a document's: no session subscribes to it)."""


class Doorbell:
    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._id = f"stack-{secrets.token_hex(6)}"  # unique among every process on a shared bus
        self._kinds: dict[str, Callable[[str, int], None]] = {}
        bus.subscribe(COMMITS, self)

    @property
    def id(self) -> str:
        return self._id

    def holder(self, topic: str) -> str | None:
        return None

    def on(self, kind: str, refresh: Callable[[str, int], None]) -> None:
        """Call ``refresh(doc_id, version)`` when another stack commits a document of ``kind``."""
        self._kinds[kind] = refresh

    def ring(self, kind: str, doc_id: str, version: int) -> None:
        message = {"type": "committed", "kind": kind, "doc_id": doc_id, "version": version}
        self.bus.publish(COMMITS, [message], all_but(self._id))  # every stack but this one

    def receive(
        self, topic: str, messages: Sequence[dict[str, Any]], frames: Sequence[str], seq: int | None
    ) -> None:
        for message in messages:
            refresh = self._kinds.get(message.get("kind", ""))
            if refresh is not None:
                refresh(str(message["doc_id"]), int(message["version"]))

    def close(self) -> None:
        self.bus.unsubscribe(COMMITS, self)
