"""The doorbell: a commit is rung to the other live stacks holding the document, which refresh their copy.

Each process (each live stack) holds documents in memory as a cache of the store.
When one commits a new version, the others' copies are stale: the doorbell tells
them (the kind, the id and the version, on the document's own commits topic,
``_commits:<id>``, which a stack listens to while it holds the document), and each
that holds an older copy reads the new one from the store at once, before its next
command could be refused as a conflict. The messages of the change itself reach
every session through the bus as usual; a refresh tells nobody anything.

A topic per document, not one for all: with one, every process would hear (and decode)
every commit of every process, work that grows with the number of processes and would
saturate first (docs/deploy.md, "Capacity"). A document held by one process only rings
nobody (the Redis bus publishes nothing for a topic no other process listens to).

Only a live layer whose bus is shared with other stacks rings (``wire(bus=...)``);
one process alone, the default, has nobody to tell and pays nothing.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from .bus import Bus, all_but

COMMITS = "_commits"
"""The prefix of the bus topics that carry the doorbell, one a document (no session listens to them)."""


class Doorbell:
    def __init__(self, bus: Bus) -> None:
        self.bus = bus
        self._id = f"stack-{secrets.token_hex(6)}"  # unique among every process on a shared bus
        self._kinds: dict[str, Callable[[str, int], None]] = {}

    @property
    def id(self) -> str:
        return self._id

    def holder(self, topic: str) -> str | None:
        return None

    def on(self, kind: str, refresh: Callable[[str, int], None]) -> None:
        """Call ``refresh(doc_id, version)`` when another stack commits a document of ``kind``."""
        self._kinds[kind] = refresh

    def watch(self, doc_id: str) -> None:
        """Hear the other stacks' commits of ``doc_id`` (it came into this stack's memory)."""
        self.bus.subscribe(f"{COMMITS}:{doc_id}", self)

    def unwatch(self, doc_id: str) -> None:
        self.bus.unsubscribe(f"{COMMITS}:{doc_id}", self)

    def ring(self, kind: str, doc_id: str, version: int) -> None:
        message = {"type": "committed", "kind": kind, "doc_id": doc_id, "version": version}
        self.bus.publish(f"{COMMITS}:{doc_id}", [message], all_but(self._id))  # every stack but this one

    def receive(
        self, topic: str, messages: Sequence[dict[str, Any]], frames: Sequence[str] | None, seq: int | None
    ) -> None:
        for message in messages:
            refresh = self._kinds.get(message.get("kind", ""))
            if refresh is not None:
                refresh(str(message["doc_id"]), int(message["version"]))

    def close(self) -> None:
        """(Each document's topic is let go as the document leaves memory.)"""
