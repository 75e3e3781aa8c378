"""A serving process's life around the app, whichever server runs it: ``wibble serve`` (its own
gevent server, ``web/server.py``) or a gunicorn gevent worker (``wibble/gunicorn_conf.py``).

Before it takes players, a process gets ready (``get_ready``): big loads go to native threads,
and the default word list is loaded, so a broken one fails the start, not a player's first game;
then the garbage collector is tuned (``tune_garbage_collector``, which ``make_server`` calls).
While it serves, its chores run beside the players (``Chores``): housekeeping, the pick-up of
deadlines nobody handled, SQLite's checkpoints, the turn timers. When it stops, every page hears
that the server is restarting (``say_goodbye``), and the store is closed after the chores stop.

Every function here expects gevent's monkey-patching to have been done.
"""

from __future__ import annotations

import gc
import logging
import os
import time
from collections.abc import Callable
from typing import Any

import gevent
import gevent.event

from ..core import search
from ..engines.store import SqliteStore, StorageError
from ..engines.store.sqlite import FolderInUse, lock_folder

YOUNG_COLLECTION = 2500

HOUSEKEEPING_INTERVAL = 60.0  # seconds between sweeps of idle games and purges of old ones
PICK_UP_INTERVAL = 2.0  # seconds between looks for deadlines nobody handled
PURGE_BATCH = 500  # games deleted per transaction, so a big purge never stalls players
CHECKPOINT_INTERVAL = 0.5  # seconds between the SQLite store's checkpoints (on a native thread)
SHUTDOWN_GRACE = 3.0  # seconds connections get to say goodbye when the server stops

log = logging.getLogger(__name__)


def get_ready(app: Any, say: Callable[[str], None], warn: Callable[[str], None]) -> None:
    """Everything a process does with the app before it takes connections. Loads of word lists and
    definitions go to a native thread of the hub's pool from now on (seconds of CPU while the
    loop serves everyone else's games); the default word list is loaded now, so a bad file fails
    here (``WordListError``). ``say`` tells the host what was loaded, ``warn`` what is amiss."""
    wordlists = app.extensions["wibble.wordlists"]
    pool = gevent.get_hub().threadpool
    wordlists.offload = lambda load_list, path: pool.apply(load_list, (path,))
    app.extensions["wibble.definitions"].offload = pool.apply
    started = time.perf_counter()
    words = wordlists.get()
    cache = wordlists.cache
    where = "no cache" if cache is None else f"cache {cache.directory}"
    if cache is not None and cache.hits:
        where = f"from {where}"
    say(
        f"Loaded word list {words.name!r} ({len(words.trie):,} words) "
        f"in {time.perf_counter() - started:.2f}s ({where})"
    )
    if not search.compiled():
        warn(
            "the compiled board search (wibble/core/_walk.c) is not built, so every count of"
            " the words left runs in Python, about ten times slower; install a C compiler and"
            " Python's headers, then reinstall (`make play` does)"
        )
    say(f"Games are saved in {app.extensions['wibble.store'].description}")
    persistence = app.extensions["wibble.engines"].persistence()
    if persistence:
        warn(persistence)
    raise_open_file_limit()


def raise_open_file_limit(wanted: int = 65536) -> None:
    """Every player holds a socket open: lift the soft limit (often 1024) towards the hard one."""
    try:
        import resource
    except ImportError:  # not on this platform
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass


def tune_garbage_collector() -> None:
    """Call once the app and its default word list are loaded.

    Everything alive by then lives as long as the process: the modules, the app and
    the word list's trie (tens of thousands of dicts). It is moved out of the cyclic
    garbage collector's sight, so a full collection, which pauses every game at once,
    scans only the connections and games.

    Young collections run every ``YOUNG_COLLECTION`` allocations instead of Python's
    700: each one promotes whatever happens to be in flight (a message, an event),
    and the promoted objects are what eventually trigger the full collections that
    cost 30-80 ms at a thousand players (benchmarks.load). Not many more, though: every
    tenth young collection is a middle one, which scans all that the ten promoted, so
    at 10,000 it paused every game for 30-50 ms in 250 rooms of four, at 2,500 for 8-10
    (docs/benchmarks-log.md, 2026-12-07).
    """
    gc.collect()
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_COLLECTION, older, oldest)


class Chores:
    """The work a serving process does beside its players, from ``start`` until ``stop``:
    housekeeping, the pick-up of deadlines nobody handled, SQLite's checkpoints on a native
    thread, and the turn timers (bots, pauses between rounds; the websocket route starts
    those too, for a server that runs no chores, such as ``flask run``)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self._stopping = gevent.event.Event()
        self._loops: list[gevent.Greenlet] = []  # killed at stop
        self._checkpoints: gevent.Greenlet | None = None  # asked to stop, and waited for
        self._folder: int | None = None  # the lock held on the SQLite folder (``hold_folder``)

    def start(self) -> None:
        self._loops = [gevent.spawn(run_housekeeping, self.app), gevent.spawn(run_pick_up, self.app)]
        store = self.app.extensions["wibble.store"]
        if isinstance(store, SqliteStore):
            try:
                self._folder = hold_folder(store)
            except FolderInUse:  # (said in the log) held from the moment the other lets go
                self._loops.append(gevent.spawn(take_folder_later, store, self._took_folder))
            self._checkpoints = gevent.spawn(run_checkpoints, store, self._stopping)
        self.app.extensions["wibble.live"].timers.start()

    def _took_folder(self, fd: int) -> None:
        self._folder = fd

    def stop(self) -> None:
        """Stop them all; a checkpoint under way is finished first, so the store may be closed
        once this returns."""
        self._stopping.set()
        gevent.killall(self._loops)
        self.app.extensions["wibble.live"].timers.stop()
        if self._checkpoints is not None:
            self._checkpoints.join()
        if self._folder is not None:
            os.close(self._folder)  # (the lock goes with it; a SIGKILL lets go of it too)
            self._folder = None


def hold_folder(store: SqliteStore) -> int | None:
    """Lock the database's folder for as long as this process serves from it (``lock_folder``), and
    say so in the log when another process holds it already: each keeps the games it serves in
    memory, so two on one folder serve each other's players stale games (docs/deploy.md), and
    raise ``FolderInUse`` (``Chores`` then tries again every second, ``take_folder_later``). None
    if there is nothing to lock (a file system without such locks)."""
    try:
        return lock_folder(store.path.parent)
    except FolderInUse:
        log.warning(
            "another Wibble process serves games from %s: each keeps the games it serves in memory, "
            "so a player sent from one to the other meets their game as it was, and their next move "
            "is refused. Serve one folder from one process (for a moment during a gunicorn reload, "
            "two is expected), or share games between processes through Redis (docs/deploy.md)",
            store.path.parent,
        )
        raise


def take_folder_later(store: SqliteStore, took: Callable[[int], None], every: float = 1.0) -> None:
    """Forever until it is held: the folder's lock, which another process held at start (the old
    worker of a gunicorn reload, a ``wibble copy``); ``took`` gets its descriptor."""
    while True:
        gevent.sleep(every)
        try:
            fd = lock_folder(store.path.parent)
        except FolderInUse:
            continue
        if fd is not None:
            took(fd)
        return


def say_goodbye(app: Any, grace: float = SHUTDOWN_GRACE) -> None:
    """Tell every connection the server is restarting (1012), and give them ``grace`` seconds to
    send what they had queued and close; a page reconnects at once (to another process, behind
    a load balancer), instead of waiting for its heartbeat to notice a dead server."""
    connections = app.extensions["wibble.connections"]
    connections.close_all()
    deadline = time.monotonic() + grace
    while len(connections) and time.monotonic() < deadline:
        gevent.sleep(0.05)


def run_housekeeping(app: Any, interval: float = HOUSEKEEPING_INTERVAL) -> None:
    """Forever: let idle games and matches leave memory, and delete those untouched for ``RETENTION_DAYS``."""
    live = app.extensions["wibble.live"]
    store = app.extensions["wibble.store"]
    keep = float(app.config["RETENTION_DAYS"]) * 86400
    while True:
        try:
            live.games.sweep(force=True)
            live.matches.sweep()
            if live.rooms.keeper.races is not None:
                live.rooms.keeper.races.sweep()
            live.rooms.deadlines.sweep(PURGE_BATCH)
            live.dailies.keep_key()
            before, purged = time.time() - keep, 0
            while True:
                deleted = store.purge(before, PURGE_BATCH)
                purged += deleted
                if deleted < PURGE_BATCH:
                    break
                gevent.sleep(0)  # let players' moves in between batches
            if purged:
                log.info("deleted %d saved games untouched for %s days", purged, app.config["RETENTION_DAYS"])
        except StorageError as exc:  # the store or Redis is away: one line, not a traceback a round
            log.warning("housekeeping could not reach the store (%s); trying again later", exc.reason)
        except Exception:
            log.exception("housekeeping failed; trying again later")
        gevent.sleep(interval)


def run_pick_up(app: Any, interval: float = PICK_UP_INTERVAL) -> None:
    """Forever: take on the deadlines nobody handled (a dead process's, or this one's before a
    restart): a turn that ran out, a grace period, a room left empty (``Router.pick_up``)."""
    live = app.extensions["wibble.live"]
    while True:
        try:
            live.pick_up()
        except Exception as exc:  # the store is away: look again later
            log.warning("could not look for deadlines nobody handled: %s", exc)
        gevent.sleep(interval)


def run_checkpoints(
    store: SqliteStore, stop: gevent.event.Event, interval: float = CHECKPOINT_INTERVAL
) -> None:
    """Until ``stop`` is set: the SQLite store's checkpoints on a native thread of the hub's pool,
    so that no commit on the loop runs one (``SqliteStore.checkpoint``). A checkpoint under way
    when ``stop`` is set is finished first: the store is closed after this returns. While they
    fail (a read-only or full disk, a file moved away), the commits' backstop bounds the WAL;
    each new reason is logged once, and so is the recovery."""
    pool = gevent.get_hub().threadpool
    failing: str | None = None
    try:
        store.defer_checkpoints()
    except StorageError as exc:
        log.warning("checkpoints stay in the commits, on the loop: %s", exc.reason)
        return
    while not stop.wait(interval):
        try:
            pool.apply(store.checkpoint)
        except Exception as exc:
            reason = exc.reason if isinstance(exc, StorageError) else repr(exc)
            if reason != failing:
                log.warning(
                    "could not checkpoint the database: %s",
                    reason,
                    exc_info=not isinstance(exc, StorageError),
                )
            failing = reason
        else:
            if failing is not None:
                log.warning("checkpointing the database again")
            failing = None
