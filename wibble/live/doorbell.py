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

Only a live layer whose engines are shared with other stacks rings (``Engines.shared``);
one process alone, the default, has nobody to tell and pays nothing.
"""

from __future__ import annotations

import heapq
import logging
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..engines.bus import Bus, all_but

COMMITS = "_commits"
"""The prefix of the bus topics that carry the doorbell, one a document (no session listens to them)."""
RECHECKS = (0.2, 1.0, 6.0)
"""Seconds after a document comes into memory at which its copy is checked against the store.

A process that held the document alone publishes nothing for it (the Redis bus's shortcut)
until it hears that another process joined the topic, or its mark runs out (5 s): a commit it
makes in between is rung to nobody, and this copy would stay behind, its pages with it. The
checks bound that: a copy found behind takes the stored one, and its pages are shown it."""

log = logging.getLogger(__name__)


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
        self, topic: str, messages: Sequence[dict[str, Any]], frame: str | None, seq: int | None
    ) -> None:
        for message in messages:
            refresh = self._kinds.get(message.get("kind", ""))
            if refresh is not None:
                refresh(str(message["doc_id"]), int(message["version"]))

    def close(self) -> None:
        """(Each document's topic is let go as the document leaves memory.)"""


class Rechecks:
    """Checks, at ``RECHECKS`` after each document came into memory, that its copy is current
    (``check(doc_id)``, a ``Documents.catch_up_one``); one thread for all of them."""

    def __init__(self, delays: Sequence[float] = RECHECKS) -> None:
        self.delays = tuple(delays)
        self._due: list[tuple[float, int, Callable[[str], object], str]] = []
        self._count = 0
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def add(self, check: Callable[[str], object], doc_id: str) -> None:
        now = time.monotonic()
        with self._wake:
            for delay in self.delays:
                self._count += 1
                heapq.heappush(self._due, (now + delay, self._count, check, doc_id))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="wibble-rechecks", daemon=True)
                self._thread.start()
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._due or self._due[0][0] > time.monotonic():
                    self._wake.wait(None if not self._due else self._due[0][0] - time.monotonic())
                _, _, check, doc_id = heapq.heappop(self._due)
            try:
                check(doc_id)
            except Exception:
                log.exception("checking %s against the store failed", doc_id)
