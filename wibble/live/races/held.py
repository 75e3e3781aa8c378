"""A race held in memory, and how it is kept as a document (``documents.Kind``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...core.race import OVER, Race


@dataclass(eq=False)
class LiveRace:
    race: Race
    last_active: float
    lock: threading.RLock = field(default_factory=threading.RLock)
    """Re-entrant: a bot's scored word tells the standings from under the race's lock."""

    @property
    def race_id(self) -> str:
        return self.race.race_id

    @property
    def doc_id(self) -> str:
        return self.race.race_id

    @property
    def version(self) -> int:
        return self.race.version

    @property
    def racing(self) -> bool:
        return self.race.phase != OVER


class RaceKind:
    """Races as documents. ``follow(live)`` sets the race's deadlines from what it now holds;
    ``show(live)`` tells everyone in its room how it stands."""

    name = "race"

    def __init__(self, show: Callable[[LiveRace], None], follow: Callable[[LiveRace], None]) -> None:
        self.show = show
        self.follow = follow

    def dump(self, live: LiveRace) -> dict[str, Any]:
        return live.race.to_doc()

    def restore(self, live: LiveRace, doc: dict[str, Any]) -> None:
        live.race = Race.from_doc(doc)

    def reloaded(self, live: LiveRace, doc: dict[str, Any]) -> None:
        live.race = Race.from_doc(doc)
        self.show(live)
        self.follow(live)

    def refresh(self, live: LiveRace, doc: dict[str, Any]) -> None:
        live.race = Race.from_doc(doc)
        self.follow(live)

    def due(self, live: LiveRace) -> float | None:
        """A bot's next word, or the results: indexed by the store, so that a race whose process
        died is taken on by another, its bots and its end on time."""
        return live.race.due()
