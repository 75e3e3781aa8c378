"""A token bucket: how many messages a connection may send, with bursts allowed."""

from __future__ import annotations

from collections.abc import Callable


class TokenBucket:
    """``rate`` tokens a second up to ``burst``; each message takes one. The clock is injected."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = burst
        self._last = clock()

    def take(self) -> bool:
        """Spend a token if one is left; False means the message should be refused."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False
