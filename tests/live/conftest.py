"""The live layer in-process: a store, the router ``wire`` builds, ``Session`` players, a fake clock.

No sockets and no sleeps (see ``tests.live.players``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.live.players import EMPTY, GRACE, QUICK, FakeClock, Live, LiveFactory, Start
from tests.support import WORDS
from wibble.engines.store import MemoryStore, Store
from wibble.engines.store.redis import RedisStore
from wibble.live import LiveSettings, RoomLimits, wire
from wibble.live.budgets import Limits
from wibble.wordlists import WordLists


@pytest.fixture(scope="session")
def wordlists() -> WordLists:
    return WordLists(WORDS)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["memory", "redis", "cluster"])
def new_store(request: pytest.FixtureRequest) -> Callable[[], Store]:
    """A fresh, empty store of the engine under test: every live test runs on memory, on a real
    Redis and on a real Redis Cluster (the SQLite engine is the protocol tests' default)."""
    if request.param == "memory":
        return MemoryStore
    url = request.getfixturevalue("cluster_url" if request.param == "cluster" else "redis_url")
    return lambda: RedisStore(url)


@pytest.fixture
def make_live(wordlists: WordLists, clock: FakeClock, new_store: Callable[[], Store]) -> LiveFactory:
    """Start a live layer: ``store`` (a fresh one of the engine under test by default), ``limits``
    (None: unlimited), and any of ``LiveSettings`` (``idle_timeout``, ``max_games``, ``min_words``),
    or ``wordlists`` and ``definitions``."""

    def make(store: Store | None = None, limits: Limits | None = None, **options: Any) -> Live:
        store = store if store is not None else new_store()
        lists = options.pop("wordlists", wordlists)
        definitions = options.pop("definitions", None)
        settings = LiveSettings(limits=limits, **options)
        router = wire(store, lists, clock, clock, settings, entropy=random.Random(7), definitions=definitions)
        return Live(store, router, clock)

    return make


@pytest.fixture
def live(make_live: LiveFactory) -> Live:
    return make_live()


@pytest.fixture
def start(wordlists: WordLists, clock: FakeClock, new_store: Callable[[], Store]) -> Start:
    """A live layer; ``start(store)`` on an earlier one's store is the same server after a restart."""

    def make(store: Store | None = None, limits: Limits | None = None, **room: Any) -> Live:
        store = store if store is not None else new_store()
        room_limits = RoomLimits(**{"grace": GRACE, "empty": EMPTY, **room})
        settings = LiveSettings(limits=limits, pace=QUICK, round_pause=0.0, rooms=room_limits)
        return Live(store, wire(store, wordlists, clock, clock, settings, entropy=random.Random(7)), clock)

    return make
