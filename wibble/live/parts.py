"""What every service of the live layer shares: ``wire`` builds it once and hands it to each."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..engines.bus import Bus
from ..engines.presence import Presence
from ..engines.store import Store
from ..wordlists import WordLists
from .budgets import Budgets
from .doorbell import Doorbell, Rechecks
from .sessions import Membership
from .timers import Timers


@dataclass(frozen=True)
class Parts:
    store: Store
    wordlists: WordLists
    bus: Bus
    presence: Presence
    budgets: Budgets
    timers: Timers
    clock: Callable[[], float]
    """Monotonic seconds: how long a game has been idle."""
    wall_clock: Callable[[], float]
    """Seconds since the epoch: whatever is saved, every deadline included, so that it means the
    same after a restart."""
    doorbell: Doorbell | None = None
    """With engines shared by other processes: rings each commit to them (``documents``)."""
    rechecks: Rechecks | None = None


class Service:
    """A service of the live layer (games, matches, rooms), holding the parts they all use."""

    def __init__(self, parts: Parts) -> None:
        self.parts = parts
        self.store = parts.store
        self.wordlists = parts.wordlists
        self.bus = parts.bus
        self.presence = parts.presence
        self.budgets = parts.budgets
        self.timers = parts.timers
        self.members = Membership(parts.bus, parts.presence)
