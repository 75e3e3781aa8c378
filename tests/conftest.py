"""Fixtures: the real server, real websocket clients, and a real Chromium for Playwright; and the
two tiers (tests/tiers.py): every test that uses one of them is marked ``processes``."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests import tiers
from tests.browser import PLAYWRIGHT_BUNDLED, NoBrowser, find_chromium
from tests.redis_server import NoRedis, RedisCluster, RedisServer
from tests.support import Client, LiveServer

TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before ``-m`` selects by the marks
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        params = callspec.params.values() if callspec is not None else ()
        path = item.path.relative_to(TESTS) if item.path.is_relative_to(TESTS) else item.path
        fixtures = getattr(item, "fixturenames", ())
        if tiers.is_second_tier(path, fixtures, params):
            item.add_marker(tiers.MARKER)
            if tiers.runs_in_process(path, fixtures):
                item.add_marker(tiers.IN_PROCESS)
            if tiers.in_browser(path):
                item.add_marker(tiers.BROWSER)


def second_tier(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker(tiers.MARKER) is not None


@pytest.fixture(autouse=True)
def _fast_tier_starts_no_server(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test of the fast tier that starts a server fails, naming where it belongs: the fast
    tier stays fast, and a server never starts there unnoticed."""
    if not second_tier(request):
        tiers.refuse_servers(request.node.nodeid, monkeypatch.setattr)


@pytest.fixture(scope="session", autouse=True)
def _cache_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Servers and commands started by tests keep compiled lists and saved games in the run's own
    folders. The compiled lists and definitions books (rebuildable, written whole, then renamed
    into place) are shared by the run's workers, so that each does not compile them again (seconds
    of CPU each, on a machine the other workers keep busy); saved games are each worker's own."""
    keys = ("XDG_CACHE_HOME", "WIBBLE_CACHE_DIR", "XDG_DATA_HOME", "WIBBLE_DATA_DIR")
    saved = {key: os.environ.get(key) for key in keys}
    if os.environ.get("PYTEST_XDIST_WORKER"):
        cache_home = tmp_path_factory.getbasetemp().parent / "cache-home"  # (the run's, beside its workers')
        cache_home.mkdir(exist_ok=True)
    else:
        cache_home = tmp_path_factory.mktemp("cache-home")
    os.environ["XDG_CACHE_HOME"] = str(cache_home)
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("data-home"))
    os.environ.pop("WIBBLE_CACHE_DIR", None)
    os.environ.pop("WIBBLE_DATA_DIR", None)
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="session")
def server() -> Iterator[LiveServer]:
    """One server for the whole run, with the shipped word lists and default limits (budgets roomy)."""
    live = LiveServer()
    yield live
    live.stop()


@pytest.fixture(scope="session")
def base_url(server: LiveServer) -> str:
    """Pages open on the live server, so ``page.goto("/")`` works.

    Also replaces pytest-playwright's fallback ``base_url`` (an instance-method
    fixture that pytest 9 warns about, which is an error under our settings).
    """
    return server.url


@pytest.fixture
def start_server() -> Iterator[Callable[..., LiveServer]]:
    """Start a server with other settings (``env`` takes WIBBLE_* variables); stopped afterwards."""
    started: list[LiveServer] = []

    def start(*args: str, env: dict[str, str] | None = None) -> LiveServer:
        live = LiveServer(*args, env=env)
        started.append(live)
        return live

    yield start
    for live in started:
        live.stop()


@pytest.fixture
def connect(server: LiveServer) -> Iterator[Callable[..., Client]]:
    """Open websocket clients to the shared server; all are closed afterwards."""
    clients: list[Client] = []

    def open_client(url: str | None = None, **options: Any) -> Client:
        client = Client(url or server.ws_url, **options)
        clients.append(client)
        return client

    yield open_client
    for client in clients:
        try:
            client.close()
        except Exception:
            pass


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """One real redis-server for the run (never a skip: the test command provides one)."""
    try:
        server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    except NoRedis as exc:
        pytest.fail(str(exc), pytrace=False)
    yield server
    server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer, request: pytest.FixtureRequest) -> str:
    """The shared server's address, emptied for this test."""
    import redis

    if not second_tier(request):  # asked for with ``getfixturevalue``, by a parameter not "redis"
        raise tiers.ServerInFastTier(
            f"{request.node.nodeid} uses Redis but is in the fast tier: make the value of the"
            " parameter that brings it 'redis', or ask for redis_url as an argument (see tests/tiers.py)"
        )

    with redis.Redis.from_url(redis_server.url) as client:
        client.flushall()
    return redis_server.url


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    """One real Redis Cluster for the run: three masters, a replica each (never a skip)."""
    try:
        cluster = RedisCluster(tmp_path_factory.mktemp("cluster")).start()
    except NoRedis as exc:
        pytest.fail(str(exc), pytrace=False)
    yield cluster
    cluster.stop()


@pytest.fixture
def cluster_url(redis_cluster: RedisCluster, request: pytest.FixtureRequest) -> str:
    """The address of one node of the run's Redis Cluster, every master emptied for this test."""
    if not second_tier(request):
        raise tiers.ServerInFastTier(
            f"{request.node.nodeid} uses a Redis Cluster but is in the fast tier: make the value of"
            " the parameter that brings it 'cluster', or ask for cluster_url as an argument"
        )
    redis_cluster.flush()
    return redis_cluster.url


@pytest.fixture(scope="session")
def chromium_path() -> str:
    try:
        return find_chromium()
    except NoBrowser as exc:
        pytest.fail(str(exc), pytrace=False)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any], chromium_path: str) -> dict[str, Any]:
    # This machine's network is closed: without these flags Chromium keeps trying
    # to reach Google's services in the background.
    args = {
        **browser_type_launch_args,
        "args": [
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ],
    }
    if chromium_path != PLAYWRIGHT_BUNDLED:
        args["executable_path"] = chromium_path
    return args
