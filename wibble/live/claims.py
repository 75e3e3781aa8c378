"""Claims: which process handles a deadline that several processes hold.

Every process that holds a match or a room in memory sets its deadlines, so with
several processes the same turn timer or bot step falls due in each. Before handling a
due deadline, a process claims its key for a lease; a process that finds the key
claimed by another leaves it alone and looks again once the lease could have run out.
A holder keeps its claim while the same key keeps falling due on it (a bot's drag, step
by step, is one claim) and lets it go when nothing more is due under that key. A holder
that dies simply stops renewing: its lease runs out and another process takes over.

Handling a deadline twice would still change nothing (every handler checks the document
and commits with compare-and-set); the claim is what keeps two processes from both
animating one bot's drag, and from doing the same work twice.

``MemoryClaims`` serves the processes (live stacks) of one Python process; the Redis
engine (``wibble.redis.claims``) serves them all.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

LEASE = 10.0
"""Seconds a claim holds without being renewed: how late a deadline of a dead process runs."""


PRUNE_AT = 10_000
"""Held claims past which the lapsed ones are let go (memory follows the live deadlines)."""


class Claims(Protocol):
    def claim(self, key: str, holder: str, lease: float) -> bool:
        """Take or renew ``key`` for ``holder`` for ``lease`` seconds; False if another holds it."""

    def release(self, key: str, holder: str) -> None:
        """Let ``key`` go, if ``holder`` has it."""


class MemoryClaims:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._held: dict[str, tuple[str, float]] = {}

    def claim(self, key: str, holder: str, lease: float) -> bool:
        now = self.clock()
        if len(self._held) >= PRUNE_AT:  # claims left by documents that went: let the lapsed ones go
            self._held = {k: v for k, v in self._held.items() if v[1] > now}
        current = self._held.get(key)
        if current is not None and current[0] != holder and current[1] > now:
            return False
        self._held[key] = (holder, now + lease)
        return True

    def release(self, key: str, holder: str) -> None:
        current = self._held.get(key)
        if current is not None and current[0] == holder:
            del self._held[key]
