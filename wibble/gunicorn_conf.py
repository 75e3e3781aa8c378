"""gunicorn's settings and server hooks for Wibble (docs/deploy.md):

    gunicorn -c python:wibble.gunicorn_conf --bind 127.0.0.1:8000

With them a gunicorn gevent worker does around the app what ``wibble serve`` does
(``wibble.web.serving``): it loads the default word list before it takes players (a broken list,
a bad setting or a database it cannot open stops gunicorn, with the reason and no traceback),
runs the chores beside them (housekeeping, the pick-up of deadlines nobody handled, SQLite's
checkpoints on a native thread), and when it is stopped stops the chores, tells every page that
the server is restarting (1012), so each reconnects at once, then closes the store. What stays
gunicorn's is its HTTP handling. Options on gunicorn's command line win over these settings, but
two that would break games are refused at start: more than one worker without Redis, and
``--preload``.

gunicorn imports this module in its master process, before any worker has monkey-patched the
standard library for gevent: so it imports nothing of Wibble's at the top, only in the hooks and
in ``application``, which run in the worker.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from typing import Any

import gevent

wsgi_app = "wibble.gunicorn_conf:application()"
worker_class = "gevent"
# The games in play live in the worker's memory, and it writes the SQLite file (a reload's new
# worker starts before the old one stops: for a moment both do, and the commits' version checks
# keep each write whole). With WIBBLE_REDIS_URL, as many workers as cores (``-w``).
workers = 1
# gunicorn's default, 1,000, would cap a worker at 1,000 players (each websocket is a connection).
worker_connections = 10000

WORKER_BOOT_ERROR = 3  # the exit code of a worker that failed to boot: gunicorn then stops, saying so
WATCH_INTERVAL = 0.2  # seconds between looks at whether gunicorn asked the worker to stop

log = logging.getLogger("gunicorn.error")  # gunicorn's own log, where its workers' lines go


def nworkers_changed(server: Any, new_value: int, old_value: int | None) -> None:
    """In the master, as gunicorn sets its number of workers: first (``old_value`` None) before it
    makes the app, writes its pid file or starts anyone, where what would break games is refused
    (gunicorn prints the reason and exits 1); later, a worker added while it runs
    (``kill -TTIN``) without Redis is taken back at once, before it starts.

    Several workers each hold games in their own memory: without Redis between them a player's
    reconnection, or a friend's, lands on a worker that does not know the game, and every worker
    runs its own timers on one SQLite file. ``--preload`` would make the app in the master, before
    gevent patches the standard library: its locks and connections are then the wrong kind in
    every worker (a new game over Redis fails)."""
    if old_value is None:
        if new_value > 1 and not _over_redis(server):
            raise RuntimeError(
                f"Wibble runs {new_value} gunicorn workers only over Redis (WIBBLE_REDIS_URL):"
                " without it the games live in one worker's memory; use -w 1 (docs/deploy.md)"
            )
        if server.cfg.preload_app:
            raise RuntimeError(
                "Wibble cannot be preloaded (--preload): its app must be made in each worker, after"
                " gevent has patched the standard library (docs/deploy.md)"
            )
    elif new_value > old_value and new_value > 1 and not _over_redis(server):
        log.error("wibble: one gunicorn worker only, without Redis (WIBBLE_REDIS_URL): not adding one")
        server.num_workers = old_value  # (this hook again, with the values swapped: nothing to do)


def _over_redis(server: Any) -> bool:
    return bool(os.environ.get("WIBBLE_REDIS_URL") or server.cfg.env.get("WIBBLE_REDIS_URL"))


def application() -> Any:
    """The app, made in the worker; a setting or a database that cannot be used stops gunicorn
    with its reason, as ``wibble serve`` stops, rather than a traceback."""
    from wibble.engines.store import StoreOpenError
    from wibble.web import ConfigError, create_app

    _log_with_gunicorn()
    try:
        return create_app()
    except ConfigError as exc:
        log.error("wibble: %s", exc.message)
    except StoreOpenError as exc:
        log.error("wibble: %s", exc)
    raise SystemExit(WORKER_BOOT_ERROR)


class _Worker:
    """This worker process's own part: its chores, and its last steps, each taken once (a greenlet
    each), however many signals ask for them."""

    chores: Any = None
    steps: dict[str, gevent.Greenlet] = {}
    interrupted = False


def post_worker_init(worker: Any) -> None:
    """In the worker, with its app loaded, before it takes connections."""
    from wibble.core import WordListError
    from wibble.web.serving import Chores, get_ready, tune_garbage_collector

    app = worker.wsgi
    try:
        get_ready(app, worker.log.info, worker.log.warning)
    except WordListError as exc:
        worker.log.error("wibble: %s", exc.message)
        raise SystemExit(WORKER_BOOT_ERROR) from None
    tune_garbage_collector()
    _Worker.chores = Chores(app)
    _Worker.chores.start()
    gevent.spawn(_stop_when_asked, worker)


def _log_with_gunicorn() -> None:
    """Wibble's own log lines (a housekeeping that failed, a client dropped) go where gunicorn's go
    (``--error-logfile``, ``--log-level``), in its format, rather than bare onto stderr."""
    wibble = logging.getLogger("wibble")
    wibble.handlers = log.handlers
    wibble.setLevel(log.level)
    wibble.propagate = False


def _stop_when_asked(worker: Any) -> None:
    """On SIGTERM gunicorn's worker stops accepting, then waits up to ``--graceful-timeout`` (30 s)
    for its connections to end: websockets would play on, then be cut without a word. As soon as
    the worker is no longer ``alive`` (what gunicorn's SIGTERM handler clears), its chores stop and
    its pages are told the server is restarting; they close, and the worker exits without waiting
    out the timeout (on a reload, SIGHUP, its replacement is already serving)."""
    while worker.alive:
        gevent.sleep(WATCH_INTERVAL)
    _once("stop", _stop, worker)


def worker_int(worker: Any) -> None:
    """SIGINT or SIGQUIT (Ctrl+C; gunicorn's fast stop): the worker exits once this returns, so
    the store is closed here. Ctrl+C sends the worker SIGINT and its master then sends SIGQUIT:
    only the first returns (its exit would otherwise land in the middle of the other's, as a
    traceback); the second waits for the process to end."""
    first = not _Worker.interrupted
    _Worker.interrupted = True
    _once("stop", _stop, worker)
    _once("close", _close, worker)
    if not first:
        gevent.sleep(float("inf"))


def worker_exit(server: Any, worker: Any) -> None:
    """The worker is leaving, its connections closed or cut. (gunicorn may also call this in the
    master, for a worker that was already gone: there is nothing of Wibble's to close there.)"""
    if _booted(worker):
        _once("stop", _stop, worker)
        _once("close", _close, worker)


def _booted(worker: Any) -> bool:
    return getattr(worker, "wsgi", None) is not None and _Worker.chores is not None


def _once(step: str, do: Callable[[Any], None], worker: Any) -> None:
    if not _booted(worker):
        return  # a signal before the app was made: nothing to stop or close yet
    if step not in _Worker.steps:
        _Worker.steps[step] = gevent.spawn(do, worker)
    _Worker.steps[step].join()


def _stop(worker: Any) -> None:
    """As ``wibble serve`` stops: the chores first (a checkpoint under way finishes), then the
    goodbye, so nothing of this worker's acts on a game after its pages have gone elsewhere."""
    from wibble.web.serving import say_goodbye

    worker.log.info("Stopping: telling players the server is restarting")
    _Worker.chores.stop()
    say_goodbye(worker.wsgi)


def _close(worker: Any) -> None:
    """Close the store, so the database is whole in its one file, and the engines (a Redis bus's
    subscriptions)."""
    app = worker.wsgi
    app.extensions["wibble.store"].close()
    app.extensions["wibble.engines"].stop()
