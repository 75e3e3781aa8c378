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

``MemoryClaims`` (``memory``) serves the processes (live stacks) of one Python process;
``RedisClaims`` (``redis``) serves them all.
"""

from __future__ import annotations

from typing import Protocol

LEASE = 10.0
"""Seconds a claim holds without being renewed: how late a deadline of a dead process runs."""


class Claims(Protocol):
    def claim(self, key: str, holder: str, lease: float) -> bool:
        """Take or renew ``key`` for ``holder`` for ``lease`` seconds; False if another holds it."""

    def release(self, key: str, holder: str) -> None:
        """Let ``key`` go, if ``holder`` has it."""
