"""The engines of one process, in its memory: ``wire``'s default, and ``wibble serve`` without Redis."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from .bus import MemoryBus
from .claims import MemoryClaims
from .meter import MemoryMeter
from .presence import MemoryPresence


@dataclass
class MemoryEngines:
    """One process's bus, presence, claims and meter. With no other process to hear from or to
    be taken for dead by, the heartbeat and the catch-ups have nothing to do. Live stacks in one
    Python process (tests) may share them, each under its own ``process`` and with ``shared``."""

    bus: MemoryBus
    presence: MemoryPresence
    claims: MemoryClaims
    meter: MemoryMeter
    process: str = ""
    shared: bool = False

    @classmethod
    def of(cls, clock: Callable[[], float], wall_clock: Callable[[], float]) -> MemoryEngines:
        """Fresh engines: presence and the meter on ``clock`` (monotonic), the claims on
        ``wall_clock``, as the deadlines they guard are."""
        return cls(MemoryBus(), MemoryPresence(clock), MemoryClaims(wall_clock), MemoryMeter(clock))

    def start(
        self,
        on_beat: Callable[[], object],
        on_revived: Callable[[Collection[str]], object],
        on_resubscribe: Callable[[set[str]], object],
    ) -> None:
        pass

    def beat(self) -> None:
        pass

    def revive(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def persistence(self) -> str | None:
        return None
