"""One function builds the whole live layer, for the server (``create_app``) and for the tests alike."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..core.daily import DAILY_SECONDS
from ..definitions import Definitions
from ..engines import Engines, MemoryEngines
from ..engines.claims import LEASE
from ..engines.store import Store
from ..wordlists import WordLists
from .budgets import Budgets, Limits
from .daily import Dailies
from .definitions import Lookups
from .doorbell import Doorbell, Rechecks
from .games import Games, LiveGame
from .matches import BotPace, LiveMatch, Matches, RoomMatches
from .parts import Parts
from .races import LiveRace, Races
from .rooms import RoomLimits, Rooms
from .router import Router
from .timers import Timers


@dataclass(frozen=True)
class LiveSettings:
    """Every setting of the live layer (``create_app`` reads them from ``WIBBLE_*``)."""

    idle_timeout: float = 3600.0
    """Seconds a game or match nobody is connected to stays in memory (it stays saved)."""
    max_games: int = 10_000
    """Games (and, apart, matches) held in memory at once; unattended ones make room."""
    min_words: int = 0
    """Words every new or refilled board must allow (0: no check)."""
    limits: Limits | None = None
    """What one client address may cost; None: no limits (tests)."""
    pace: BotPace = field(default_factory=BotPace)
    round_pause: float = 3.0
    rooms: RoomLimits = field(default_factory=RoomLimits)
    lease: float = LEASE
    """Seconds a claim on a deadline holds without renewal (see ``claims``)."""
    daily_seconds: int = DAILY_SECONDS
    """How long the daily board's sprint lasts (3 minutes)."""
    daily_per_address: int = 10
    """Scored daily attempts one client address may start a day."""
    race_minute: int = 60
    """Seconds a race's minute lasts (a room's 1, 2 or 3-minute race runs that many)."""


def wire(
    store: Store,
    wordlists: WordLists,
    clock: Callable[[], float],
    wall_clock: Callable[[], float],
    settings: LiveSettings | None = None,
    entropy: random.Random | None = None,
    engines: Engines | None = None,
    definitions: Definitions | None = None,
) -> Router:
    """The live layer over ``store``: games, matches and rooms, their deadlines, the bus and presence.

    ``clock`` measures idleness (monotonic); ``wall_clock`` dates what is saved, deadlines
    included, so that they mean the same after a restart. ``engines`` (the bus, presence, the
    claims that decide which stack handles a deadline that several hold, and the meter behind
    the per-address budgets) default to this process's memory engines; engines ``shared`` with
    other stacks (other processes) have each commit rung to them (``doorbell``). ``definitions``
    answer ``define`` (by default the host's files beside the lists only, kept in memory).
    """
    settings = settings or LiveSettings()
    engines = engines or MemoryEngines.of(clock, wall_clock)
    bus, presence = engines.bus, engines.presence
    shared = engines.shared
    budgets = (
        Budgets(settings.limits, clock, engines.meter)
        if settings.limits is not None
        else Budgets.unlimited(clock)
    )
    # Match and room deadlines are wall-clock times: they are saved, and must mean the same after a restart.
    timers = Timers(wall_clock, engines.claims, engines.process, settings.lease, on_late=engines.revive)
    parts = Parts(
        store,
        wordlists,
        bus,
        presence,
        budgets,
        timers,
        clock,
        wall_clock,
        doorbell=Doorbell(bus) if shared else None,
        rechecks=Rechecks() if shared else None,
    )

    # Two services tell a third that is built after them (each needs the one it tells): a
    # daily sprint's end enters its score, a room's match's end shows the room.
    def daily_over(live: LiveGame) -> None:
        dailies.over(live)

    def room_match_over(live: LiveMatch) -> None:
        rooms.play.over(live)

    def race_scored(live: LiveGame) -> None:
        races.scored(live)

    def race_over(live: LiveRace) -> None:
        rooms.play.race_over(live)

    games = Games(
        parts,
        idle_timeout=settings.idle_timeout,
        max_games=settings.max_games,
        entropy=entropy,
        min_words=settings.min_words,
        on_over=daily_over,
        on_scored=race_scored,
    )
    matches = Matches(
        parts,
        settings.pace,
        min_words=settings.min_words,
        idle_timeout=settings.idle_timeout,
        round_pause=settings.round_pause,
        max_matches=settings.max_games,
        on_over=room_match_over,
    )
    races = Races(parts, games, max_races=settings.max_games, on_over=race_over)
    rooms = Rooms(
        parts,
        RoomMatches(matches),
        settings.rooms,
        round_pause=settings.round_pause,
        races=races,
        race_minute=settings.race_minute,
    )
    dailies = Dailies(parts, games, settings.daily_seconds, settings.daily_per_address, settings.min_words)
    lookups = Lookups(parts, definitions or Definitions(wordlists))
    return Router(
        store, bus, presence, timers, budgets, games, matches, rooms, dailies, lookups, shared=engines.shared
    )
