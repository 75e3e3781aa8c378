"""The live layer in-process: a store, a registry, an authority, players as ``Client`` objects, a fake clock.

No sockets and no sleeps (see ``tests.live.players``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.live.players import FakeClock, Live, LiveFactory
from tests.support import WORDS
from wibble.live import Authority, Budgets, Fanout, Registry
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
    and any of the registry's options (``idle_timeout``, ``max_games``, ``min_words``, ``wordlists``)."""

    def make(store: Store | None = None, limits: Limits | None = None, **options: Any) -> Live:
        store = store if store is not None else MemoryStore()
        lists = options.pop("wordlists", wordlists)
        registry = Registry(
            store, lists, Fanout(), clock=clock, wall_clock=clock, entropy=random.Random(7), **options
        )
        budgets = Budgets(limits, clock) if limits is not None else None
        return Live(store, registry, Authority(registry, budgets), clock)

    return make


@pytest.fixture
def live(make_live: LiveFactory) -> Live:
    return make_live()
