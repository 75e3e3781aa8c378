"""A token bucket: how much a connection may send, with bursts allowed."""

from __future__ import annotations

from collections.abc import Callable


class TokenBucket:
    """``rate`` tokens a second up to ``burst``. The clock is injected."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float]) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = burst
        self._last = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now

    def take(self) -> bool:
        """Spend a token if one is left; False means the message should be refused."""
        self._refill()
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    def spend(self, amount: float) -> float:
        """Spend ``amount`` even if it runs into debt; returns the seconds until the debt is paid."""
        self._refill()
        self._tokens -= amount
        return max(0.0, -self._tokens / self.rate)

    def available(self) -> float:
        """Tokens there now (negative while in debt)."""
        self._refill()
        return self._tokens
