"""gunicorn's settings and server hooks for Wibble (docs/deploy.md):

    gunicorn -c python:wibble.gunicorn_conf --bind 127.0.0.1:8000

With them a gunicorn gevent worker does around the app what ``wibble serve`` does
(``wibble.web.serving``): it loads the default word list before it takes players (a broken list
stops gunicorn at start), runs the chores beside them (housekeeping, the pick-up of deadlines
nobody handled, SQLite's checkpoints on a native thread), and when it is stopped tells every
page that the server is restarting (1012), so each reconnects at once, then closes the store.
What stays gunicorn's is its HTTP handling. Options on gunicorn's command line win over these.

gunicorn imports this module in its master process, before any worker has monkey-patched the
standard library for gevent: so it imports nothing of Wibble's at the top, only in the hooks,
which run in the worker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gevent

wsgi_app = "wibble.web.app:create_app()"
worker_class = "gevent"
# The games in play live in the worker's memory, and it alone writes the SQLite file. With
# WIBBLE_REDIS_URL, as many workers as cores (``-w``): each is a process of its own.
workers = 1
# gunicorn's default, 1,000, would cap a worker at 1,000 players (each websocket is a connection).
worker_connections = 10000

WORKER_BOOT_ERROR = 3  # the exit code of a worker that failed to boot: gunicorn then stops, saying so
WATCH_INTERVAL = 0.2  # seconds between looks at whether gunicorn asked the worker to stop


class _Worker:
    """This worker process's own part: its chores, and its last steps, each taken once (a greenlet
    each), however many signals ask for them."""

    chores: Any = None
    steps: dict[str, gevent.Greenlet] = {}
    interrupted = False


def post_worker_init(worker: Any) -> None:
    """In the worker, with its app loaded, before it takes connections."""
    from .core import WordListError
    from .web.serving import Chores, get_ready, tune_garbage_collector

    app = worker.wsgi
    try:
        get_ready(app, worker.log.info, worker.log.warning)
    except WordListError as exc:
        worker.log.error("wibble: %s", exc.message)
        raise SystemExit(WORKER_BOOT_ERROR) from None
    tune_garbage_collector()
    _Worker.chores = Chores(app)
    _Worker.chores.start()
    gevent.spawn(_goodbye_when_stopped, worker)


def _goodbye_when_stopped(worker: Any) -> None:
    """On SIGTERM gunicorn's worker stops accepting, then waits up to ``--graceful-timeout`` (30 s)
    for its connections to end: websockets would play on, then be cut without a word. As soon as
    the worker is no longer ``alive`` (what gunicorn's SIGTERM handler clears), its pages are told
    the server is restarting; they close, and the worker exits without waiting out the timeout."""
    while worker.alive:
        gevent.sleep(WATCH_INTERVAL)
    _once("goodbye", _say_goodbye, worker)


def worker_int(worker: Any) -> None:
    """SIGINT or SIGQUIT (Ctrl+C; gunicorn's fast stop): the worker exits once this returns, so
    the store is closed here. Ctrl+C sends the worker SIGINT and its master then sends SIGQUIT:
    only the first returns (its exit would otherwise land in the middle of the other's, as a
    traceback); the second waits for the process to end."""
    first = not _Worker.interrupted
    _Worker.interrupted = True
    _once("goodbye", _say_goodbye, worker)
    _once("close", _close, worker)
    if not first:
        gevent.sleep(float("inf"))


def worker_exit(server: Any, worker: Any) -> None:
    """The worker is leaving, its connections closed or cut."""
    _once("close", _close, worker)


def _once(step: str, do: Callable[[Any], None], worker: Any) -> None:
    if step not in _Worker.steps:
        _Worker.steps[step] = gevent.spawn(do, worker)
    _Worker.steps[step].join()


def _say_goodbye(worker: Any) -> None:
    from .web.serving import say_goodbye

    worker.log.info("Stopping: telling players the server is restarting")
    say_goodbye(worker.wsgi)


def _close(worker: Any) -> None:
    """Stop the chores (a checkpoint under way finishes first), then close the store, so the
    database is whole in its one file, and the engines (a Redis bus's subscriptions)."""
    app = getattr(worker, "wsgi", None)
    if app is None or _Worker.chores is None:
        return  # it never booted
    _Worker.chores.stop()
    app.extensions["wibble.store"].close()
    app.extensions["wibble.engines"].stop()
