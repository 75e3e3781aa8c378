"""The two tiers of the suite, told apart by what a test uses, so nobody has to remember a marker.

The fast tier (``make fast``, under a minute) starts no server of any kind: the rules, the store on
memory and SQLite, the live layer on memory, the web app in-process, the protocol's parser. The
second tier (``-m processes``) is everything that starts something: a real server process, a
redis-server, nginx, a Chromium. ``make test`` runs both.

A test is in the second tier if it lives under one of ``SECOND_TIER_FOLDERS``, asks for one of
``SECOND_TIER_FIXTURES`` (directly or through the fixtures it asks for), or is the Redis case of
an engine-parametrized test (a parameter ``"redis"``, as in ``params=["memory", "redis"]``: those
fixtures ask for ``redis_url`` only once the parameter is known, which collection cannot see).
Anything else that tries to start a server is stopped by ``refuse_servers`` and told where it
belongs, as is a fast test that asks for ``redis_url`` through ``getfixturevalue``.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

MARKER = "processes"
IN_PROCESS = "in_process"
"""Also on second-tier tests that start nothing but a redis-server and run in pytest's own process
(the live layer and the engines on Redis): ``make test`` runs them with the fast tier, on every
core, since they time no server."""

SECOND_TIER_FOLDERS = frozenset({"processes", "e2e"})

SECOND_TIER_FIXTURES = frozenset(
    {
        # real ``wibble serve`` processes, and websocket clients on them (tests/conftest.py)
        "server",
        "start_server",
        "connect",
        "clients",
        # a real redis-server (nginx comes only with it: tests/deployment.py takes a redis_url)
        "redis_server",
        "redis_url",
        # a real Redis Cluster (tests/redis_server.py's RedisCluster)
        "redis_cluster",
        "cluster_url",
        # a real Chromium (pytest-playwright's fixtures, and ours)
        "chromium_path",
        "base_url",
        "browser_type_launch_args",
        "browser_type",
        "browser",
        "context",
        "new_context",
        "page",
    }
)

SERVER_PROGRAMS = frozenset({"redis-server", "nginx", "gunicorn", "flask", "chromium", "chrome"})
"""Programs whose start means a test is in the second tier (besides ``wibble serve``)."""


REDIS_PARAMETERS = frozenset({"redis", "cluster"})
"""The values of an engine-parametrized fixture's parameter that bring Redis (one server, or a
Redis Cluster)."""


SERVER_FIXTURES = SECOND_TIER_FIXTURES - {"redis_server", "redis_url", "redis_cluster", "cluster_url"}

BROWSER = "browser"
"""Also on the second tier's browser tests (``tests/e2e``): a page and its server keep two cores
busy, so ``make test`` runs them two at a time, apart from the other server tests (which mostly
wait, and run two per core), but for those marked ``alone`` in their module (a browser test that
times a stopped process)."""
ALONE = "alone"


def in_browser(path: Path) -> bool:
    return bool(path.parts) and path.parts[0] == "e2e"


def runs_in_process(path: Path, fixtures: Iterable[str]) -> bool:
    """Whether a second-tier test at ``path`` runs in pytest's own process, a redis-server its
    only outside part (no server process of ours, no nginx, no browser)."""
    in_folder = bool(path.parts) and path.parts[0] in SECOND_TIER_FOLDERS
    return not in_folder and SERVER_FIXTURES.isdisjoint(fixtures)


def is_second_tier(path: Path, fixtures: Iterable[str], params: Iterable[object]) -> bool:
    """Whether a test at ``path`` (relative to ``tests/``), asking for ``fixtures``, with the values
    of its parameters ``params``, belongs to the second tier."""
    if path.parts and path.parts[0] in SECOND_TIER_FOLDERS:
        return True
    if not SECOND_TIER_FIXTURES.isdisjoint(fixtures):
        return True
    return any(isinstance(value, str) and value in REDIS_PARAMETERS for value in params)


def starts_a_server(args: Any) -> bool:
    """Whether ``args``, as given to ``subprocess.Popen``, start a server: ``wibble serve`` (as
    ``python -m wibble serve`` or the ``wibble`` script), or one of ``SERVER_PROGRAMS`` (as a
    program or as ``python -m``)."""
    if isinstance(args, str | bytes | os.PathLike):
        words = os.fsdecode(args).split()  # (a command line for a shell)
    else:
        words = [os.fsdecode(arg) for arg in args]
    for at, word in enumerate(words):
        name = os.path.basename(word)
        if name in SERVER_PROGRAMS and (at == 0 or words[at - 1] == "-m"):
            return True
        if name == "wibble" and words[at + 1 : at + 2] == ["serve"]:
            return True
    return False


class ServerInFastTier(AssertionError):
    """A test outside the second tier tried to start a server."""


def refuse_servers(test: str, setattr: Callable[[Any, str, Any], None]) -> None:
    """Make ``subprocess.Popen`` refuse to start a server for ``test`` (``setattr`` is a
    monkeypatch's, so the refusal ends with the test). Every helper that starts one (``LiveServer``,
    ``RedisServer``, ``Deployment``'s nginx) goes through ``Popen``."""
    popen_init = subprocess.Popen.__init__

    def guarded(self: subprocess.Popen[Any], args: Any, *rest: Any, **options: Any) -> None:
        if starts_a_server(args):
            raise ServerInFastTier(
                f"{test} starts a server ({args!r}) but is in the fast tier: ask for one of the"
                " fixtures that start servers (server, start_server, redis_url, ...), or put the"
                " test under tests/processes/ (see tests/tiers.py)"
            )
        popen_init(self, args, *rest, **options)

    setattr(subprocess.Popen, "__init__", guarded)
