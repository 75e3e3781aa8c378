"""The live layer in-process: a store, the router ``wire`` builds, ``Session`` players, a fake clock.

No sockets and no sleeps (see ``tests.live.players``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.live.players import EMPTY, GRACE, QUICK, FakeClock, Live, LiveFactory, Start
from tests.support import WORDS
from wibble.live import LiveSettings, RoomLimits, wire
from wibble.live.budgets import Limits
from wibble.store import MemoryStore, Store
from wibble.wordlists import WordLists


@pytest.fixture(scope="session")
def wordlists() -> WordLists:
    return WordLists(WORDS)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def make_live(wordlists: WordLists, clock: FakeClock) -> LiveFactory:
    """Start a live layer: ``store`` (a fresh MemoryStore by default), ``limits`` (None: unlimited),
    and any of ``LiveSettings`` (``idle_timeout``, ``max_games``, ``min_words``), or ``wordlists``."""

    def make(store: Store | None = None, limits: Limits | None = None, **options: Any) -> Live:
        store = store if store is not None else MemoryStore()
        lists = options.pop("wordlists", wordlists)
        settings = LiveSettings(limits=limits, **options)
        router = wire(store, lists, clock, clock, settings, entropy=random.Random(7))
        return Live(store, router, clock)

    return make


@pytest.fixture
def live(make_live: LiveFactory) -> Live:
    return make_live()


@pytest.fixture
def start(wordlists: WordLists, clock: FakeClock) -> Start:
    """A live layer; ``start(store)`` on an earlier one's store is the same server after a restart."""

    def make(store: Store | None = None, limits: Limits | None = None, **room: Any) -> Live:
        store = store if store is not None else MemoryStore()
        room_limits = RoomLimits(**{"grace": GRACE, "empty": EMPTY, **room})
        settings = LiveSettings(limits=limits, pace=QUICK, round_pause=0.0, rooms=room_limits)
        return Live(store, wire(store, wordlists, clock, clock, settings, entropy=random.Random(7)), clock)

    return make
