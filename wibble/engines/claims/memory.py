"""Claims in one process: the holder and lease of each key, in memory."""

from __future__ import annotations

from collections.abc import Callable

PRUNE_AT = 10_000
"""Held claims past which the lapsed ones are let go (memory follows the live deadlines)."""


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

    def remaining(self, key: str) -> float:
        current = self._held.get(key)
        return 0.0 if current is None else max(0.0, current[1] - self.clock())
