"""What one client address has spent: the counts behind the per-address budgets (``live.budgets``).

``MemoryMeter`` (``memory``) keeps them for this process; ``RedisMeter`` (``redis``) for
every process together, so that an address's budgets hold across all of them.
"""

from __future__ import annotations

from typing import Protocol


class Meter(Protocol):
    """Where an address's counts are kept: token buckets by kind, and open connections."""

    def available(self, kind: str, address: str, per_minute: float) -> float:
        """Tokens in the address's bucket of ``kind`` (``per_minute`` refill, as big a burst)."""

    def take(self, kind: str, address: str, per_minute: float) -> bool:
        """Take one token if there is one; False (nothing taken) if not."""

    def connect(self, address: str, limit: float) -> bool:
        """Count a connection if the address has fewer than ``limit`` open; whether it was counted."""

    def disconnect(self, address: str) -> None: ...

    def connections(self, address: str) -> int: ...
