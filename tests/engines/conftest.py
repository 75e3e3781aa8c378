"""Every engine of each role, opened fresh for each test: the store (SQLite in a real file under
``tmp_path``) and the others (``harness``), in memory and on a real Redis."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.engines.harness import Engine, MemoryEngine, RedisEngine
from wibble.engines.store import MemoryStore, SqliteStore, Store
from wibble.engines.store.redis import RedisStore

Opener = Callable[[], Store]


@pytest.fixture(params=["sqlite", "memory", "redis"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens the engine under test; with SQLite and Redis, each call is another handle on the
    same database (as another server process would hold), with memory the one store of this process."""
    opened: list[Store] = []
    memory = MemoryStore()
    redis_url = request.getfixturevalue("redis_url") if request.param == "redis" else ""

    def open_one() -> Store:
        store: Store
        if request.param == "sqlite":
            store = SqliteStore(tmp_path / "wibble.db")
        elif request.param == "redis":
            store = RedisStore(redis_url)
        else:
            store = memory
        opened.append(store)
        return store

    yield open_one
    for store in opened:
        store.close()


@pytest.fixture
def store(open_store: Opener) -> Store:
    return open_store()


@pytest.fixture(params=["memory", "redis"])
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    """The bus, presence, claims and meter engines under test (``harness``)."""
    opened: Engine = (
        MemoryEngine() if request.param == "memory" else RedisEngine(request.getfixturevalue("redis_url"))
    )
    yield opened
    opened.close()
