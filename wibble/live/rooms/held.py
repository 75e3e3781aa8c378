"""A room held in memory, its limits, and how it is kept as a document (``documents.Kind``)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...core.match import Phase
from ...core.room import Room
from ...ratelimit import TokenBucket
from ..matches import LiveMatch
from ..races import LiveRace


def room_id(code: str) -> str:
    """Where a room is kept in the store, and its topic on the bus."""
    return f"room:{code}"


@dataclass(eq=False)
class LiveRoom:
    room: Room
    lock: threading.RLock = field(default_factory=threading.RLock)
    """Re-entrant: a room's command may end its match, whose end the room then tells under it."""
    match: LiveMatch | None = None
    race: LiveRace | None = None
    """The room's race, when the last thing it started was one (then ``match`` is None)."""
    graced: set[str] = field(default_factory=set)
    """The token hashes whose grace deadline is set in this process's timers (an index of the
    document's ``grace_until``s, rebuilt from it after every change)."""
    touched: float = float("-inf")
    """When the store last heard that the room is in use."""
    last_active: float = 0.0
    """What every held document has (``documents.Held``); a room never reads it: it leaves
    memory once it has stood empty, not when idle."""
    crowd_told: float = float("-inf")
    """When everyone was last told how many watch (see ``CROWD_EVERY``)."""
    seat_moves: dict[str, TokenBucket] = field(default_factory=dict)
    """Each seated person's budget of comings and goings settled at once, by the token hash that
    holds the seat (see ``Keeper.seat_moved``)."""

    @property
    def code(self) -> str:
        return self.room.code

    @property
    def doc_id(self) -> str:
        return room_id(self.room.code)

    @property
    def version(self) -> int:
        return self.room.version

    @property
    def away(self) -> set[str]:
        """Token hashes of people whose grace period ran out (a stand-in plays for them)."""
        return self.room.away()

    @property
    def playing(self) -> bool:
        """A match or a race is on (seats are kept, the rules stay as they are)."""
        if self.race is not None:
            return self.race.racing
        return self.match is not None and self.match.match.phase is not Phase.OVER


@dataclass(frozen=True)
class RoomLimits:
    grace: float = 120.0
    """Seconds a person's seat is held for them after their last connection leaves."""
    empty: float = 1800.0
    """Seconds a room with nobody connected is kept."""
    max_rooms: int = 1000
    max_spectators: int = 200
    """People watching one room at once (its seats do not count)."""
    spectators_per_address: int = 10
    """People watching one room from one address at once."""


class RoomKind:
    """Rooms as documents: what the store keeps of one, and what follows when another process's
    commit replaces the copy held here.

    ``follow(live, away_before)`` makes what this process does for the room (its deadlines, its
    stand-ins, the match it watches) follow the document it now holds; ``show(live)`` tells
    everyone in the room how it stands."""

    name = "room"

    def __init__(
        self,
        limits: RoomLimits,
        follow: Callable[[LiveRoom, set[str]], None],
        show: Callable[[LiveRoom], None],
    ) -> None:
        self.limits = limits
        self.follow = follow
        self.show = show

    def dump(self, live: LiveRoom) -> dict[str, Any]:
        return live.room.to_doc()

    def restore(self, live: LiveRoom, doc: dict[str, Any]) -> None:
        live.room = Room.from_doc(doc)

    def reloaded(self, live: LiveRoom, doc: dict[str, Any]) -> None:
        self._take(live, doc)
        self.show(live)

    def refresh(self, live: LiveRoom, doc: dict[str, Any]) -> None:
        self._take(live, doc)

    def due(self, live: LiveRoom) -> float | None:
        """The first grace period to run out, or when the room, standing empty, closes."""
        room = live.room
        times = list(room.due().values())
        if room.empty_since is not None:
            times.append(room.empty_since + self.limits.empty)
        return min(times, default=None)

    def _take(self, live: LiveRoom, doc: dict[str, Any]) -> None:
        before = live.away
        live.room = Room.from_doc(doc)
        self.follow(live, before)
