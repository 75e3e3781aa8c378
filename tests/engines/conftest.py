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


@pytest.fixture(params=["sqlite", "memory", "redis", "cluster"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens the engine under test; with SQLite and Redis (one server, or a Redis Cluster), each
    call is another handle on the same database (as another server process would hold), with
    memory the one store of this process."""
    opened: list[Store] = []
    memory = MemoryStore()
    redis_url = {"redis": "redis_url", "cluster": "cluster_url"}.get(request.param)
    if redis_url:
        redis_url = request.getfixturevalue(redis_url)

    def open_one() -> Store:
        store: Store
        if request.param == "sqlite":
            store = SqliteStore(tmp_path / "wibble.db")
        elif redis_url:
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


@pytest.fixture(params=["memory", "redis", "cluster"])
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    """The bus, presence, claims and meter engines under test (``harness``)."""
    opened: Engine
    if request.param == "memory":
        opened = MemoryEngine()
    else:
        url = request.getfixturevalue("cluster_url" if request.param == "cluster" else "redis_url")
        opened = RedisEngine(url, request.param)
    yield opened
    opened.close()
