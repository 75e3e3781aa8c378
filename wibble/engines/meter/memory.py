"""The counts of one process: a token bucket per address and kind, and open connections, in memory."""

from __future__ import annotations

from collections.abc import Callable

from ...ratelimit import TokenBucket


class MemoryMeter:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self._buckets: dict[tuple[str, str], TokenBucket] = {}
        self._connections: dict[str, int] = {}
        self._last_prune = clock()

    def available(self, kind: str, address: str, per_minute: float) -> float:
        bucket = self._buckets.get((kind, address))
        return per_minute if bucket is None else bucket.available()

    def take(self, kind: str, address: str, per_minute: float) -> bool:
        self._prune()
        bucket = self._buckets.get((kind, address))
        if bucket is None:
            bucket = self._buckets[kind, address] = TokenBucket(per_minute / 60, per_minute, self.clock)
        return bucket.take()

    def connect(self, address: str, limit: float) -> bool:
        open_now = self._connections.get(address, 0)
        if open_now >= limit:
            return False
        self._connections[address] = open_now + 1
        return True

    def disconnect(self, address: str) -> None:
        left = self._connections.get(address, 0) - 1
        if left > 0:
            self._connections[address] = left
        else:
            self._connections.pop(address, None)

    def connections(self, address: str) -> int:
        return self._connections.get(address, 0)

    def _prune(self) -> None:
        """Forget full buckets (addresses that have been quiet long enough to have their whole budget)."""
        now = self.clock()
        if now - self._last_prune < 60:
            return
        self._last_prune = now
        for key in [key for key, bucket in self._buckets.items() if bucket.available() >= bucket.burst]:
            del self._buckets[key]
