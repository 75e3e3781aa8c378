"""The live layer in-process: a store, the router ``wire`` builds, ``Session`` players, a fake clock.

No sockets and no sleeps (see ``tests.live.players``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.live.players import FakeClock, Live, LiveFactory
from tests.support import WORDS
from wibble.live import LiveSettings, wire
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
