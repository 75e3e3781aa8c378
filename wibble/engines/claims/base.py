"""Claims: which process handles a deadline that several processes hold.

Every process that holds a match or a room in memory sets its deadlines, so with
several processes the same turn timer or bot step falls due in each. Before handling a
due deadline, a process claims its key for a lease; a process that finds the key
claimed by another leaves it alone and looks again as that claim runs out (``remaining``).
A holder keeps its claim while the same key keeps falling due on it (a bot's drag, step
by step, is one claim; a step further off than half a lease is held for until then) and lets
it go when nothing more is due under that key. A holder that dies simply stops renewing:
its lease runs out and another process takes over.

Handling a deadline twice would still change nothing (every handler checks the document
and commits with compare-and-set); the claim is what keeps two processes from both
animating one bot's drag, and from doing the same work twice.

``MemoryClaims`` (``memory``) serves the processes (live stacks) of one Python process;
``RedisClaims`` (``redis``) serves them all.
"""

from __future__ import annotations

from typing import Protocol

LEASE = 5.0
"""Seconds a claim holds without being renewed: at most how late a deadline of a dead process
runs (a bot's word, a turn's end). Its holder renews it at each step of a bot's drag (a quarter
of a second apart), so only a process stopped or dead that long loses it."""


class Claims(Protocol):
    def claim(self, key: str, holder: str, lease: float) -> bool:
        """Take or renew ``key`` for ``holder`` for ``lease`` seconds; False if another holds it."""

    def release(self, key: str, holder: str) -> None:
        """Let ``key`` go, if ``holder`` has it."""

    def remaining(self, key: str) -> float:
        """Seconds until the claim on ``key`` runs out unless renewed (0.0: nobody holds it): when
        a process refused the key may look again, to take over from a holder that died."""
